package io.qosweaver.pointcuts;

import java.io.IOException;
import java.util.Arrays;

/**
 * One timeline's current slot: per pair that occurred in it, the count and the first and last
 * offset from the slot's start. Entries arrive in non-decreasing slot order; when a later slot
 * begins, the finished one goes to the {@link Sink} (the version 2 writer writes it, the
 * in-memory {@link SlotProfile.Builder} keeps it). The same code summarizes single join points
 * (count 1, first = last) and merges the base slots of a version 2 profile into longer ones.
 * A hash of the current slot's pairs, cleared by a stamp, so a new slot costs no clearing.
 */
final class SlotAccumulator {

    interface Sink {
        /** The arrays are the accumulator's: read them during the call only. */
        void slot(long slot, int entries, int[] pairs, int[] counts, int[] first, int[] last) throws IOException;
    }

    private long slot = -1;
    private int n;
    private int[] pairs = new int[16];
    private int[] counts = new int[16];
    private int[] first = new int[16];
    private int[] last = new int[16];
    /** Open addressing pair -> entry index; valid where {@code stamp == epoch}. */
    private int[] keys = new int[32];
    private int[] index = new int[32];
    private int[] stamps = new int[32];
    private int epoch = 1;

    /**
     * Adds {@code count} occurrences of {@code pair} in {@code slot}, the first at {@code firstOffset}
     * and the last at {@code lastOffset} from the slot's start; a later slot first flushes this one.
     *
     * @throws IllegalArgumentException if {@code slot} is before the current slot
     */
    void add(long slot, int pair, int count, int firstOffset, int lastOffset, Sink sink) throws IOException {
        if (slot != this.slot) {
            if (slot < this.slot) {
                throw new IllegalArgumentException("slot " + slot + " after slot " + this.slot);
            }
            flush(sink);
            this.slot = slot;
        }
        if ((n + 1) * 2 > keys.length) {
            rehash();
        }
        int mask = keys.length - 1;
        int h = (pair * 0x9E3779B9) >>> 7;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            if (stamps[i] != epoch) {
                stamps[i] = epoch;
                keys[i] = pair;
                index[i] = append(pair, count, firstOffset, lastOffset);
                return;
            }
            if (keys[i] == pair) {
                int e = index[i];
                counts[e] += count;
                first[e] = Math.min(first[e], firstOffset);
                last[e] = Math.max(last[e], lastOffset);
                return;
            }
        }
    }

    /** Hands the current slot to the sink (if it has entries) and empties it. */
    void flush(Sink sink) throws IOException {
        if (n > 0) {
            sink.slot(slot, n, pairs, counts, first, last);
        }
        n = 0;
        if (++epoch == 0) {
            Arrays.fill(stamps, 0);
            epoch = 1;
        }
    }

    private int append(int pair, int count, int firstOffset, int lastOffset) {
        if (n == pairs.length) {
            int size = n * 2;
            pairs = Arrays.copyOf(pairs, size);
            counts = Arrays.copyOf(counts, size);
            first = Arrays.copyOf(first, size);
            last = Arrays.copyOf(last, size);
        }
        pairs[n] = pair;
        counts[n] = count;
        first[n] = firstOffset;
        last[n] = lastOffset;
        return n++;
    }

    /** Twice the table, refilled from the current entries (the table only indexes them). */
    private void rehash() {
        int size = keys.length * 2;
        keys = new int[size];
        index = new int[size];
        stamps = new int[size];
        epoch = 1;
        int mask = size - 1;
        for (int e = 0; e < n; e++) {
            int h = (pairs[e] * 0x9E3779B9) >>> 7;
            int i = h & mask;
            while (stamps[i] == epoch) {
                i = (i + 1) & mask;
            }
            stamps[i] = epoch;
            keys[i] = pairs[e];
            index[i] = e;
        }
    }
}
