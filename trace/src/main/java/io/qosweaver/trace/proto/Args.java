package io.qosweaver.trace.proto;

import java.util.Arrays;

/**
 * The debug annotations of one track event (Perfetto's {@code DebugAnnotation}): name and an
 * integer or string value, in the order added. Reused by its owner from event to event.
 */
public final class Args {
    private String[] names = new String[4];
    private String[] strings = new String[4];
    private long[] longs = new long[4];
    private int count;

    public Args clear() {
        Arrays.fill(strings, 0, count, null);
        count = 0;
        return this;
    }

    private int slot(String name) {
        if (count == names.length) {
            names = Arrays.copyOf(names, count * 2);
            strings = Arrays.copyOf(strings, count * 2);
            longs = Arrays.copyOf(longs, count * 2);
        }
        names[count] = name;
        return count++;
    }

    public Args add(String name, long value) {
        int i = slot(name);
        strings[i] = null;
        longs[i] = value;
        return this;
    }

    /** A null value is left out. */
    public Args add(String name, String value) {
        if (value != null) {
            int i = slot(name); // before reading the field: slot() may replace the array
            strings[i] = value;
        }
        return this;
    }

    public int size() {
        return count;
    }

    public String name(int i) {
        return names[i];
    }

    /** The string value of entry {@code i}, or null when it holds a number. */
    public String string(int i) {
        return strings[i];
    }

    public long number(int i) {
        return longs[i];
    }

    /** A copy that its receiver may keep. */
    public Args copy() {
        Args a = new Args();
        for (int i = 0; i < count; i++) {
            if (strings[i] != null) {
                a.add(names[i], strings[i]);
            } else {
                a.add(names[i], longs[i]);
            }
        }
        return a;
    }
}
