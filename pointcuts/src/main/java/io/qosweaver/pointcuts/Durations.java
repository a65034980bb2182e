package io.qosweaver.pointcuts;

/** Durations in messages: the largest unit that gives a whole number (10 ms, 500 us, 3 ns). */
final class Durations {
    private Durations() {
    }

    static String text(long nanos) {
        if (nanos != 0 && nanos % 1_000_000_000L == 0) {
            return nanos / 1_000_000_000L + " s";
        }
        if (nanos != 0 && nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + " ms";
        }
        if (nanos != 0 && nanos % 1_000L == 0) {
            return nanos / 1_000L + " us";
        }
        return nanos + " ns";
    }
}
