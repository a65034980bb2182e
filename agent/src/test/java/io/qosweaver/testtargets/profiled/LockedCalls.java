package io.qosweaver.testtargets.profiled;

/** A call inside a synchronized block, one in a synchronized method, and one outside both. */
public class LockedCalls {
    private final Object lock = new Object();

    public static int leaf(int x) {
        return x + 1;
    }

    public static int other(int x) {
        return x - 1;
    }

    public int run(int x) {
        int s = other(x);
        synchronized (lock) {
            s = leaf(s);
        }
        return s + locked(s);
    }

    public synchronized int locked(int x) {
        return other(x);
    }
}
