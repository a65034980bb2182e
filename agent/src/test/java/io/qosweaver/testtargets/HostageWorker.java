package io.qosweaver.testtargets;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A low task that holds a {@link ReentrantLock} across its control points, and a high task that
 * makes progress and then needs that lock: suspended at a control point, the low thread holds
 * the high one hostage (no monitor is held at the control point, so the weaver cannot see it).
 * Woven by {@code DeadlockAwareWeavingTest}; outside io.qosweaver.agent, which is never woven.
 */
public class HostageWorker {
    private final ReentrantLock lock = new ReentrantLock();
    public volatile boolean holdsLock;
    /** Ends the low task's first loop, the one that holds the lock. */
    public volatile boolean stop;
    /** Ends the low task's second loop, after the lock. */
    public volatile boolean done;
    /** Ends the high task's second phase of progress. */
    public volatile boolean highMayEnd;

    public static int step(int x) {
        return x * 31 + 7;
    }

    public static int measure(int x) {
        return x + 1;
    }

    /** The low task: control points before each step(..), first with the lock held, then without. */
    public int chart() {
        int s = 0;
        lock.lock();
        try {
            holdsLock = true;
            while (!stop) {
                s = step(s);
            }
        } finally {
            holdsLock = false;
            lock.unlock();
        }
        while (!done) {
            s = step(s);
        }
        return s;
    }

    /** The high task: progress points before each measure(..), and the lock in between. */
    public int collect(int rounds) {
        int s = 0;
        for (int i = 0; i < rounds; i++) {
            s = measure(s);
        }
        lock.lock();
        try {
            s++;
        } finally {
            lock.unlock();
        }
        while (!highMayEnd) {
            s = measure(s);
            Thread.onSpinWait();
        }
        return s;
    }
}
