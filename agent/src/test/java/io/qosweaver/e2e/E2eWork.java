package io.qosweaver.e2e;

/**
 * The heavy request's work, shared by the test apps of every server and linking none of them: a
 * loop of 100 calls of {@link #step}, where the tests weave their control points.
 */
public final class E2eWork {
    private E2eWork() {}

    public static int step(int x) {
        return x * 31 + 7;
    }

    public static int work() {
        int s = 0;
        for (int i = 0; i < 100; i++) {
            s = step(s);
        }
        return s;
    }
}
