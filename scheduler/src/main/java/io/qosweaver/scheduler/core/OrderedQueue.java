package io.qosweaver.scheduler.core;

/**
 * One of the state machine's two queues (run or wait): an intrusive doubly-linked list of thread
 * records sorted by their order key, ascending, ties in insertion order. Insertion scans from the
 * tail, since new keys are usually the largest (admission order): O(1) then, O(n) for a key set by
 * a policy. Not thread-safe: the state machine's caller serializes it.
 */
final class OrderedQueue {
    /** {@link ThreadState#RUN} or {@link ThreadState#WAIT}: what {@code t.queue} says of a member. */
    final byte kind;
    ThreadState head, tail;
    int size;

    OrderedQueue(byte kind) {
        this.kind = kind;
    }

    /** Inserts after the last member with a key <= t's. */
    void insert(ThreadState t) {
        ThreadState p = tail;
        while (p != null && p.order > t.order) {
            p = p.qPrev;
        }
        ThreadState n = p == null ? head : p.qNext;
        t.qPrev = p;
        t.qNext = n;
        if (p == null) {
            head = t;
        } else {
            p.qNext = t;
        }
        if (n == null) {
            tail = t;
        } else {
            n.qPrev = t;
        }
        t.queue = kind;
        size++;
    }

    /** Removes a member. */
    void remove(ThreadState t) {
        ThreadState p = t.qPrev, n = t.qNext;
        if (p == null) {
            head = n;
        } else {
            p.qNext = n;
        }
        if (n == null) {
            tail = p;
        } else {
            n.qPrev = p;
        }
        t.qPrev = t.qNext = null;
        t.queue = ThreadState.NONE;
        size--;
    }
}
