package io.qosweaver.trace.buffer;

import io.qosweaver.platform.LinuxThreads;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * Every thread's {@link EventRing}: created on a thread's first event (its OS tid resolved then,
 * once), found again through a {@link ThreadLocal} (no allocation after the first), and registered
 * in a copy-on-write array that the drain thread walks. Rings of threads that ended are dropped
 * once drained.
 */
public final class ThreadRings {
    private final int capacity;
    private final ThreadLocal<EventRing> mine;
    private final AtomicReference<EventRing[]> all = new AtomicReference<>(new EventRing[0]);
    private volatile long droppedByEnded;

    public ThreadRings(int capacity) {
        this.capacity = capacity;
        this.mine = ThreadLocal.withInitial(this::register);
    }

    private EventRing register() {
        Thread t = Thread.currentThread();
        EventRing r = new EventRing(capacity, t, LinuxThreads.currentTid());
        for (;;) {
            EventRing[] cur = all.get();
            EventRing[] next = Arrays.copyOf(cur, cur.length + 1);
            next[cur.length] = r;
            if (all.compareAndSet(cur, next)) {
                return r;
            }
        }
    }

    /** The calling thread's ring. */
    public EventRing current() {
        return mine.get();
    }

    /** Drain thread only: drains every ring, then forgets those of threads that ended. */
    public void drain(EventRing.Sink sink) {
        boolean ended = false;
        for (EventRing r : all.get()) {
            r.drain(sink);
            ended |= !r.thread().isAlive();
        }
        if (ended) {
            for (;;) {
                EventRing[] cur = all.get();
                EventRing[] keep = Arrays.stream(cur).filter(r -> r.thread().isAlive() || !r.empty()).toArray(EventRing[]::new);
                long gone = 0;
                for (EventRing r : cur) {
                    if (!r.thread().isAlive() && r.empty()) {
                        gone += r.dropped();
                    }
                }
                if (all.compareAndSet(cur, keep)) {
                    droppedByEnded += gone;
                    break;
                }
            }
        }
    }

    public void forEach(Consumer<EventRing> c) {
        for (EventRing r : all.get()) {
            c.accept(r);
        }
    }

    /** Events every ring ever dropped because it was full. */
    public long dropped() {
        long d = droppedByEnded;
        for (EventRing r : all.get()) {
            d += r.dropped();
        }
        return d;
    }
}
