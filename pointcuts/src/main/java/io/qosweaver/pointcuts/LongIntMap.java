package io.qosweaver.pointcuts;

import java.util.Arrays;

/** Open addressing long -> int map, -1 for absent; keys are (caller id, callee id) pairs. */
final class LongIntMap {
    private long[] keys;
    private int[] values;
    private int size;
    private int mask;

    LongIntMap(int capacity) {
        int cap = Integer.highestOneBit(Math.max(16, capacity) * 2 - 1);
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(values, -1);
        mask = cap - 1;
    }

    static long key(int caller, int callee) {
        return ((long) caller << 32) | (callee & 0xFFFFFFFFL);
    }

    int get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            if (values[i] < 0) {
                return -1;
            }
            if (keys[i] == key) {
                return values[i];
            }
        }
    }

    void put(long key, int value) {
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = slot(key);
        while (values[i] >= 0 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] < 0) {
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    int size() {
        return size;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] ok = keys;
        int[] ov = values;
        keys = new long[ok.length * 2];
        values = new int[ok.length * 2];
        Arrays.fill(values, -1);
        mask = keys.length - 1;
        size = 0;
        for (int i = 0; i < ok.length; i++) {
            if (ov[i] >= 0) {
                put(ok[i], ov[i]);
            }
        }
    }
}
