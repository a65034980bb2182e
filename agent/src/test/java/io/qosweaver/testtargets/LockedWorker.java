package io.qosweaver.testtargets;

/** Calls of {@code step} inside a synchronized block, a synchronized method, and outside both. */
public class LockedWorker {
    private final Object lock = new Object();

    public static int step(int x) {
        return x * 31 + 7;
    }

    public int inBlock(int n) {
        int s = 0;
        synchronized (lock) {
            for (int i = 0; i < n; i++) {
                s = step(s);
            }
        }
        return s;
    }

    public synchronized int inMethod(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = step(s);
        }
        return s;
    }

    public int outside(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = step(s);
        }
        synchronized (lock) {
            s++;
        }
        return s;
    }
}
