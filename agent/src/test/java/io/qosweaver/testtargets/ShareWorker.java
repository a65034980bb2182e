package io.qosweaver.testtargets;

/**
 * Two CPU-bound tasks for the MTR-LS end-to-end test ({@code MtrLsIT}): each spins over
 * {@link #step} until stopped, and a control point is woven before every call (a few microseconds
 * of work apart). Outside io.qosweaver.agent, which is never woven.
 */
public class ShareWorker {
    public volatile boolean stop;

    /** A few microseconds of arithmetic the JIT cannot drop. */
    public static long step(long x) {
        for (int i = 0; i < 2_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    public long big() {
        long s = 1;
        while (!stop) {
            s = step(s);
        }
        return s;
    }

    public long small() {
        long s = 2;
        while (!stop) {
            s = step(s);
        }
        return s;
    }
}
