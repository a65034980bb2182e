package io.qosweaver.trace.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.trace.app.AppTrace;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventRingTest {
    @Test
    void aFullRingDropsTheNewestAndCountsThem() {
        EventRing r = new EventRing(5, Thread.currentThread(), 7);
        assertThat(r.capacity()).isEqualTo(8);
        for (int i = 0; i < 12; i++) {
            r.offer(i, 1, i, "a" + i, null, null);
        }
        assertThat(r.dropped()).isEqualTo(4);
        List<Long> got = new ArrayList<>();
        assertThat(r.drain((ring, t, kind, n, a, b, c) -> got.add(n))).isEqualTo(8);
        assertThat(got).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
        assertThat(r.empty()).isTrue();
        r.offer(99, 1, 99, null, null, null);
        got.clear();
        r.drain((ring, t, kind, n, a, b, c) -> got.add(n));
        assertThat(got).containsExactly(99L);
    }

    @Test
    void oneWriterAndTheDrainerLoseNothingThatFits() throws Exception {
        ThreadRings rings = new ThreadRings(1 << 10);
        int n = 200_000;
        Thread w = new Thread(() -> {
            EventRing r = rings.current();
            for (int i = 0; i < n; i++) {
                while (!r.offer(i, 1, i, null, null, null)) {
                    Thread.onSpinWait(); // only the test retries; the tracer's callers drop
                }
            }
        });
        long[] next = {0};
        boolean[] inOrder = {true};
        w.start();
        while (w.isAlive() || next[0] < n) {
            rings.drain((ring, t, kind, num, a, b, c) -> {
                inOrder[0] &= num == next[0];
                next[0]++;
            });
        }
        w.join();
        assertThat(next[0]).isEqualTo(n);
        assertThat(inOrder[0]).isTrue();
    }

    @Test
    void reportingARequestAllocatesNothing() {
        ThreadRings rings = new ThreadRings(1 << 12);
        AppTrace.install(rings);
        try {
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            String cls = "chart";
            String path = "/chart";
            for (int i = 0; i < 20_000; i++) { // warm up, and register this thread's ring
                AppTrace.requestBegin(cls, "GET", path);
                AppTrace.requestEnd();
                rings.current().drain((ring, t, kind, num, a, b, c) -> { });
            }
            EventRing mine = rings.current();
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1_000; i++) {
                AppTrace.requestBegin(cls, "GET", path);
                AppTrace.requestEnd();
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated by 2,000 events").isLessThan(256);
            assertThat(mine.dropped()).isZero();
        } finally {
            AppTrace.install(null);
        }
    }

    @Test
    void reportingServerPhasesAndUserEventsAllocatesNothing() {
        ThreadRings rings = new ThreadRings(1 << 12);
        io.qosweaver.trace.app.ServerTrace.install(rings);
        io.qosweaver.trace.app.UserTrace.install(rings);
        try {
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            String name = "render";
            for (int i = 0; i < 20_000; i++) { // warm up, and register this thread's ring
                serverAndUserEvents(i, name);
                rings.current().drain((ring, t, kind, num, a, b, c) -> { });
            }
            EventRing mine = rings.current();
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200; i++) {
                serverAndUserEvents(i, name);
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes allocated by 3,000 events").isLessThan(256);
            assertThat(mine.dropped()).isZero();
        } finally {
            io.qosweaver.trace.app.ServerTrace.install(null);
            io.qosweaver.trace.app.UserTrace.install(null);
        }
    }

    private static void serverAndUserEvents(int conn, String name) {
        io.qosweaver.trace.app.ServerTrace.accept(conn);
        io.qosweaver.trace.app.ServerTrace.tlsBegin(conn);
        io.qosweaver.trace.app.ServerTrace.tlsEnd(conn, true);
        io.qosweaver.trace.app.ServerTrace.parseBegin(conn);
        io.qosweaver.trace.app.ServerTrace.headersDone();
        io.qosweaver.trace.app.ServerTrace.serviceBegin();
        io.qosweaver.trace.app.UserTrace.begin(name);
        io.qosweaver.trace.app.UserTrace.event(name);
        io.qosweaver.trace.app.UserTrace.end();
        io.qosweaver.trace.app.ServerTrace.serviceEnd();
        io.qosweaver.trace.app.ServerTrace.readEnd();
        io.qosweaver.trace.app.ServerTrace.serviceBegin(conn); // a dispatched request's service
        io.qosweaver.trace.app.ServerTrace.requestDone(conn);
        io.qosweaver.trace.app.ServerTrace.serviceReturned();
        io.qosweaver.trace.app.ServerTrace.close(conn);
    }
}
