package io.qosweaver.pointcuts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@link BinaryProfileFormat binary profile}, streaming; errors name the byte offset.
 * Version 1 as join points ({@link #read(Path, ProfileSink)}), version 2 as slot summaries
 * ({@link #readSlots}); {@link #version} tells which a file is.
 */
public final class BinaryProfileReader {

    /**
     * What a file held besides its join points.
     *
     * @param threads threads (version 1) or timelines (version 2, one per thread)
     * @param slotNanos the base slot of a version 2 file; 0 for version 1
     */
    public record Summary(long joinPoints, int signatures, int threads, Map<String, String> meta, long slotNanos) {}

    /** Where the records of a version 2 file go, in file order. */
    public interface SlotTarget {
        /** The file's base slot, before any other record. */
        default void slotNanos(long slotNanos) throws IOException {
        }

        // Every callback defaults to ignoring its record: a reader overrides those it wants.

        default void signature(int id, String text) throws IOException {
        }

        default void pair(int id, int callerId, int calleeId) throws IOException {
        }

        default void timeline(int index, long threadId, long startNanos) throws IOException {
        }

        /** The arrays are the reader's: read them during the call only. */
        default void slot(int timeline, long slot, int entries, int[] pairs, int[] counts, int[] first, int[] last)
                throws IOException {
        }

        /** A request span of a timeline already defined, in time order (files before spans have none). */
        default void span(int timeline, long startNanos, long endNanos) throws IOException {
        }
    }

    private final String source;
    private final InputStream in;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int lim;
    private long base;

    private BinaryProfileReader(String source, InputStream in) {
        this.source = source;
        this.in = in;
    }

    /** Reads into a builder without turning ids back into strings on every join point. */
    public static Summary read(Path file, Profile.Builder builder) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.toString(), in, builder);
        }
    }

    public static Summary read(String source, InputStream in, Profile.Builder builder) throws IOException {
        int[][] map = {new int[64]};
        return new BinaryProfileReader(source, in).run(new Target() {
            @Override
            public void signature(int id, String text) {
                if (id == map[0].length) {
                    map[0] = Arrays.copyOf(map[0], id * 2);
                }
                map[0][id] = builder.intern(text);
            }

            @Override
            public void joinPoint(long time, long thread, int caller, int callee) {
                builder.joinPoint(time, thread, map[0][caller], map[0][callee]);
            }
        });
    }

    public static Summary read(Path file, ProfileSink sink) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(file.toString(), in, sink);
        }
    }

    public static Summary read(String source, InputStream in, ProfileSink sink) throws IOException {
        List<String> table = new ArrayList<>();
        return new BinaryProfileReader(source, in).run(new Target() {
            @Override
            public void signature(int id, String text) {
                table.add(text);
            }

            @Override
            public void joinPoint(long time, long thread, int caller, int callee) throws IOException {
                sink.joinPoint(time, thread, table.get(caller), table.get(callee));
            }
        });
    }

    /** Where the records of a version 1 file go, with signature ids instead of strings. */
    interface Target {
        void signature(int id, String text) throws IOException;

        void joinPoint(long time, long thread, int caller, int callee) throws IOException;
    }

    /** Reads a version 1 file into {@code target}. */
    static Summary readIds(Path file, Target target) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new BinaryProfileReader(file.toString(), in).run(target);
        }
    }

    private Summary run(Target target) throws IOException {
        int version = readVersion();
        if (version == BinaryProfileFormat.VERSION_SLOTS) {
            throw error(4, "a slot profile (version 2) holds slot summaries, not single join points; read it with"
                    + " readSlots (qosweaver pointcuts reads both versions)");
        }
        int signatures = 0;
        long[] threadIds = new long[16];
        long[] lastTime = new long[16];
        int threads = 0;
        long count = 0;
        Map<String, String> meta = new LinkedHashMap<>();
        while (true) {
            long at = offset();
            int tag = nextTag(at, count);
            switch (tag) {
                case BinaryProfileFormat.JOIN_POINT -> {
                    long ti = readUnsigned(at, "join point");
                    long delta = readSigned(at, "join point");
                    long caller = readUnsigned(at, "join point");
                    long callee = readUnsigned(at, "join point");
                    if (ti >= threads) {
                        throw error(at, "corrupt: join point on thread index " + ti + " but only " + threads + " threads are defined");
                    }
                    if (caller >= signatures || callee >= signatures) {
                        throw error(at, "corrupt: join point names signature id " + Math.max(caller, callee)
                                + " but only " + signatures + " signatures are defined");
                    }
                    int t = (int) ti;
                    lastTime[t] += delta;
                    target.joinPoint(lastTime[t], threadIds[t], (int) caller, (int) callee);
                    count++;
                }
                case BinaryProfileFormat.SIGNATURE -> {
                    target.signature(signatures, readString(at, "signature"));
                    signatures++;
                }
                case BinaryProfileFormat.THREAD -> {
                    long id = readSigned(at, "thread");
                    if (threads == threadIds.length) {
                        threadIds = Arrays.copyOf(threadIds, threads * 2);
                        lastTime = Arrays.copyOf(lastTime, threads * 2);
                    }
                    threadIds[threads++] = id;
                }
                case BinaryProfileFormat.META -> meta.put(readString(at, "meta"), readString(at, "meta"));
                case BinaryProfileFormat.END -> {
                    checkEnd(at, count, "the file has");
                    return new Summary(count, signatures, threads, meta, 0);
                }
                default -> throw error(at, String.format("corrupt: unknown record tag 0x%02x", tag));
            }
        }
    }

    /**
     * The version of a binary profile (1 or 2), or -1 if the file does not start with the binary
     * profile's magic number (a text profile). Reads five bytes.
     */
    public static int version(Path file) throws IOException {
        byte[] head = new byte[BinaryProfileFormat.MAGIC.length + 1];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        }
        if (n < BinaryProfileFormat.MAGIC.length
                || !Arrays.equals(head, 0, BinaryProfileFormat.MAGIC.length, BinaryProfileFormat.MAGIC, 0,
                        BinaryProfileFormat.MAGIC.length)) {
            return -1;
        }
        return n == head.length ? head[BinaryProfileFormat.MAGIC.length] & 0xFF : 0;
    }

    /** Reads a file of either version through, checking it, for what it holds besides its join points. */
    public static Summary summary(Path file) throws IOException {
        if (version(file) == BinaryProfileFormat.VERSION_SLOTS) {
            return readSlots(file, new SlotTarget() { });
        }
        return read(file, (time, thread, caller, callee) -> { });
    }

    /** Reads a version 2 file's slot summaries, checking them (see {@link BinaryProfileFormat}). */
    public static Summary readSlots(Path file, SlotTarget target) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new BinaryProfileReader(file.toString(), in).runSlots(target);
        }
    }

    private int readVersion() throws IOException {
        for (int i = 0; i < BinaryProfileFormat.MAGIC.length; i++) {
            if (!more() || buf[pos++] != BinaryProfileFormat.MAGIC[i]) {
                throw error(0, "not a QoSWeaver binary profile (bad magic number)");
            }
        }
        int version = readByte(0, "header");
        if (version != BinaryProfileFormat.VERSION && version != BinaryProfileFormat.VERSION_SLOTS) {
            throw error(4, "unsupported binary profile version " + version + " (this reader knows versions "
                    + BinaryProfileFormat.VERSION + " and " + BinaryProfileFormat.VERSION_SLOTS + ")");
        }
        return version;
    }

    private Summary runSlots(SlotTarget target) throws IOException {
        int version = readVersion();
        if (version != BinaryProfileFormat.VERSION_SLOTS) {
            throw error(4, "a join-point profile (version 1), not a slot profile (version 2)");
        }
        long slotNanos = readUnsigned(5, "header");
        if (slotNanos < 1 || slotNanos > SlotProfileWriter.MAX_SLOT_NANOS) {
            throw error(5, "corrupt: base slot of " + slotNanos + " ns");
        }
        target.slotNanos(slotNanos);
        int signatures = 0;
        int pairs = 0;
        int[] pairSeen = new int[64];
        int seenStamp = 0;
        long[] lastSlot = new long[16];
        long[] lastSpanEnd = new long[16];
        int timelines = 0;
        long count = 0;
        int[] ps = new int[64];
        int[] cs = new int[64];
        int[] fs = new int[64];
        int[] ls = new int[64];
        Map<String, String> meta = new LinkedHashMap<>();
        while (true) {
            long at = offset();
            int tag = nextTag(at, count);
            switch (tag) {
                case BinaryProfileFormat.SLOT -> {
                    long tl = readUnsigned(at, "slot");
                    long slot = readUnsigned(at, "slot");
                    long entries = readUnsigned(at, "slot");
                    if (tl >= timelines) {
                        throw error(at, "corrupt: slot of timeline " + tl + " but only " + timelines + " timelines are defined");
                    }
                    if (slot <= lastSlot[(int) tl]) {
                        throw error(at, "corrupt: slot " + slot + " of timeline " + tl + " does not follow its slot "
                                + lastSlot[(int) tl]);
                    }
                    if (entries < 1 || entries > pairs) {
                        throw error(at, "corrupt: a slot with " + entries + " entries (" + pairs + " pairs are defined)");
                    }
                    lastSlot[(int) tl] = slot;
                    int n = (int) entries;
                    if (n > ps.length) {
                        ps = Arrays.copyOf(ps, n);
                        cs = Arrays.copyOf(cs, n);
                        fs = Arrays.copyOf(fs, n);
                        ls = Arrays.copyOf(ls, n);
                    }
                    seenStamp++;
                    for (int e = 0; e < n; e++) {
                        long pair = readUnsigned(at, "slot");
                        long c = readUnsigned(at, "slot");
                        long first = readUnsigned(at, "slot");
                        long span = readUnsigned(at, "slot");
                        if (pair >= pairs) {
                            throw error(at, "corrupt: slot entry names pair " + pair + " but only " + pairs + " pairs are defined");
                        }
                        if (pairSeen[(int) pair] == seenStamp) {
                            throw error(at, "corrupt: pair " + pair + " twice in one slot");
                        }
                        pairSeen[(int) pair] = seenStamp;
                        if (c < 1 || c > Integer.MAX_VALUE || first + span >= slotNanos || (c == 1 && span != 0)) {
                            throw error(at, "corrupt: slot entry with count " + c + ", first offset " + first + " and span "
                                    + span + " in a slot of " + slotNanos + " ns");
                        }
                        ps[e] = (int) pair;
                        cs[e] = (int) c;
                        fs[e] = (int) first;
                        ls[e] = (int) (first + span);
                        count += c;
                    }
                    target.slot((int) tl, slot, n, ps, cs, fs, ls);
                }
                case BinaryProfileFormat.PAIR -> {
                    long caller = readUnsigned(at, "pair");
                    long callee = readUnsigned(at, "pair");
                    if (caller >= signatures || callee >= signatures) {
                        throw error(at, "corrupt: pair names signature id " + Math.max(caller, callee)
                                + " but only " + signatures + " signatures are defined");
                    }
                    if (pairs == pairSeen.length) {
                        pairSeen = Arrays.copyOf(pairSeen, pairs * 2);
                    }
                    target.pair(pairs++, (int) caller, (int) callee);
                }
                case BinaryProfileFormat.SIGNATURE -> target.signature(signatures++, readString(at, "signature"));
                case BinaryProfileFormat.TIMELINE -> {
                    long thread = readSigned(at, "timeline");
                    long start = readSigned(at, "timeline");
                    if (timelines == lastSlot.length) {
                        lastSlot = Arrays.copyOf(lastSlot, timelines * 2);
                    }
                    if (timelines == lastSpanEnd.length) {
                        lastSpanEnd = Arrays.copyOf(lastSpanEnd, timelines * 2);
                    }
                    lastSlot[timelines] = -1;
                    lastSpanEnd[timelines] = Long.MIN_VALUE;
                    target.timeline(timelines++, thread, start);
                }
                case BinaryProfileFormat.SPAN -> {
                    long tl = readUnsigned(at, "span");
                    long start = readSigned(at, "span");
                    long end = readSigned(at, "span");
                    if (tl >= timelines) {
                        throw error(at, "corrupt: span of timeline " + tl + " but only " + timelines + " timelines are defined");
                    }
                    if (end < start || start < lastSpanEnd[(int) tl]) {
                        throw error(at, "corrupt: span [" + start + ", " + end + "] of timeline " + tl
                                + " is reversed or overlaps the previous one");
                    }
                    lastSpanEnd[(int) tl] = end;
                    target.span((int) tl, start, end);
                }
                case BinaryProfileFormat.META -> meta.put(readString(at, "meta"), readString(at, "meta"));
                case BinaryProfileFormat.END -> {
                    checkEnd(at, count, "the slots hold");
                    return new Summary(count, signatures, timelines, meta, slotNanos);
                }
                default -> throw error(at, String.format("corrupt: unknown record tag 0x%02x", tag));
            }
        }
    }

    /** The next record's tag: the file must not end before its end record. */
    private int nextTag(long at, long count) throws IOException {
        if (!more()) {
            throw error(at, "truncated: the file ends without its end record after " + count
                    + " join points (was the profiler stopped before it closed the file?)");
        }
        return buf[pos++] & 0xFF;
    }

    /** The end record: the count it declares is the one read, and nothing follows it. */
    private void checkEnd(long at, long count, String holds) throws IOException {
        long declared = readUnsigned(at, "end");
        if (declared != count) {
            throw error(at, "corrupt: the end record counts " + declared + " join points but " + holds + " " + count);
        }
        if (more()) {
            throw error(offset(), "corrupt: data after the end record");
        }
    }

    private String readString(long recordAt, String record) throws IOException {
        long len = readUnsigned(recordAt, record);
        if (len > BinaryProfileFormat.MAX_STRING_BYTES) {
            throw error(recordAt, "corrupt: " + record + " record with a string of " + len + " bytes");
        }
        byte[] b = new byte[(int) len];
        for (int i = 0; i < len; i++) {
            b[i] = (byte) readByte(recordAt, record);
        }
        return new String(b, StandardCharsets.UTF_8);
    }

    private long readSigned(long recordAt, String record) throws IOException {
        long v = readUnsigned(recordAt, record);
        return (v >>> 1) ^ -(v & 1);
    }

    private long readUnsigned(long recordAt, String record) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            int b = readByte(recordAt, record);
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw error(offset() - 1, "corrupt: a number longer than 10 bytes in the " + record + " record at offset " + recordAt);
    }

    private int readByte(long recordAt, String record) throws IOException {
        if (!more()) {
            throw error(offset(), "truncated: the file ends inside the " + record + " record that starts at offset " + recordAt);
        }
        return buf[pos++] & 0xFF;
    }

    private boolean more() throws IOException {
        if (pos < lim) {
            return true;
        }
        base += lim;
        pos = 0;
        lim = Math.max(0, in.read(buf));
        return lim > 0;
    }

    private long offset() {
        return base + pos;
    }

    private ProfileFormatException error(long offset, String what) {
        return ProfileFormatException.atOffset(source, offset, what);
    }
}
