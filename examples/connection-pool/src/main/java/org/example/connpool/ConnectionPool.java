package org.example.connpool;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A pool of database connections in the style of the thesis' RUBiS servlets: a stack of free
 * connections guarded by the pool's monitor. The bug (kept on purpose): a release notifies a
 * waiter only when it puts a connection back into an EMPTY pool. When two releases come before
 * the first waiter it woke has taken its connection, the second finds the pool non-empty and
 * notifies nobody: a connection lies free while processors still wait (a lost wake-up). The fix
 * notifies every waiter on every release.
 */
public final class ConnectionPool {
    private final Deque<Integer> free = new ArrayDeque<>();
    private final boolean fixed;
    private final long waitMillis;
    private int waiting;
    private long unnotified;

    /**
     * @param size the number of connections
     * @param fixed notify all waiters on every release (the thesis' fix)
     * @param waitMillis how long a waiter waits before it looks at the pool again by itself (a
     *     pool's acquire timeout; without it the lost wake-up can leave a processor waiting forever)
     */
    public ConnectionPool(int size, boolean fixed, long waitMillis) {
        for (int i = 0; i < size; i++) {
            free.push(i);
        }
        this.fixed = fixed;
        this.waitMillis = waitMillis;
    }

    public synchronized int acquire() throws InterruptedException {
        while (free.isEmpty()) {
            waiting++;
            try {
                wait(waitMillis);
            } finally {
                waiting--;
            }
        }
        return free.pop();
    }

    public synchronized void release(int connection) {
        boolean wasEmpty = free.isEmpty();
        free.push(connection);
        if (fixed) {
            notifyAll();
        } else if (wasEmpty) {
            notify(); // the bug: only when the pool was empty
        } else if (waiting > 0) {
            unnotified++; // a connection goes back while processors wait, and none is told
        }
    }

    /** Connections in the pool now. */
    public synchronized int free() {
        return free.size();
    }

    /** Releases that found processors waiting and notified none of them (the bug's lost wake-ups). */
    public synchronized long unnotified() {
        return unnotified;
    }
}
