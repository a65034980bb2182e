package io.qosweaver.testtargets;

/** Woven by PolicyWeavingTest. Outside io.qosweaver.agent, which the agent never weaves. */
public class Worker {
    public int step(int i) {
        return i + 1;
    }

    public int other(int i) {
        return i - 1;
    }

    /** Control points go before each step(..) call here, not before other(..) or Math.abs. */
    public int loop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = step(s);
            s = other(s) + 1;
        }
        return Math.abs(s);
    }

    /** Calls step(..) too, but is not selected by the withincode. */
    public int untouched(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = step(s);
        }
        return s;
    }

    /** An entry: runs {@code inside} in the "collector" task class. */
    public void collect(Runnable inside) {
        inside.run();
    }

    public void collectAndFail() {
        throw new IllegalStateException("boom");
    }
}
