package io.qosweaver.scheduler.core;

/**
 * Control points passed, counted without atomics in cache-line-padded cells striped by thread
 * id. Racy by design: two threads on one stripe may lose an increment; the count is for
 * observability, and an exact count would cost a contended atomic on the hot path.
 */
public final class ControlPointCount {
    private static final int STRIPES = 64; // power of two
    private static final int PAD = 16; // 128 bytes per cell: no false sharing between stripes
    private static final long[] CELLS = new long[STRIPES * PAD];

    private ControlPointCount() {}

    @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+, this is Java 17 bytecode
    public static void increment() {
        CELLS[((int) Thread.currentThread().getId() & (STRIPES - 1)) * PAD]++;
    }

    public static long sum() {
        long s = 0;
        for (int i = 0; i < STRIPES; i++) {
            s += CELLS[i * PAD];
        }
        return s;
    }
}
