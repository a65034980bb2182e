package io.qosweaver.pointcuts;

/**
 * The binary profile, in two versions sharing the magic number, the signature, meta and end
 * records.
 *
 * <p><b>Version 1</b> records every join point: 6 to 9 bytes each (a tag, the thread index, the
 * time delta, two ids), written as a stream so that the writer keeps only the signature table and
 * one time stamp per thread in memory ({@link BinaryProfileWriter}).
 *
 * <pre>
 * file      := magic version record* end
 * magic     := 'Q' 'W' 'P' 'F'                 (4 bytes)
 * version   := 0x01                            (1 byte)
 * record    := signature | thread | joinPoint | meta
 * signature := 0x01 uvarint(length) utf8-bytes   defines the next signature id (0, 1, 2, ...)
 * thread    := 0x02 svarint(threadId)            defines the next thread index (0, 1, 2, ...)
 * joinPoint := 0x03 uvarint(threadIndex) svarint(timeDelta) uvarint(callerId) uvarint(calleeId)
 * meta      := 0x04 uvarint(length) utf8 uvarint(length) utf8     a key and a value
 * end       := 0x00 uvarint(joinPointCount)      then nothing
 * </pre>
 *
 * {@code uvarint} is unsigned LEB128 (7 bits a byte, low first, at most 10 bytes); {@code
 * svarint} is a zigzag-encoded signed long in LEB128. {@code timeDelta} is the time stamp in
 * nanoseconds minus the previous join point's time stamp on the same thread (0 before the
 * first), so a thread's times are a running sum. Signatures are canonical ({@link Signatures})
 * and are defined before their first use. A file without its end record, with a record cut off,
 * an unknown tag, or an id not defined yet is reported with its byte offset. Meta records carry
 * what the profiler wants to say, e.g. {@code limit} when it stopped at a size limit, and the calls
 * made with a monitor held: {@code monitors} says they were recorded, and each such call is a
 * {@code inMonitor.N} record whose value is {@code CALLER TAB CALLEE}.
 *
 * <p><b>Version 2</b> (slot summaries, {@link SlotProfileWriter}) keeps what the generator of
 * Fig. 3 needs and no more: per thread and <em>base slot</em> (a fixed length of time from the
 * thread's first join point), each (caller, callee) pair that occurred, how often, and when it
 * first and last occurred in the slot. Its size grows with the profiled time and the distinct
 * pairs per slot, not with the join points: a loop that calls the same method a million times in
 * a slot is one entry. Generation with a target interval that is a multiple of the base slot is
 * exactly Fig. 3 on the slots of that interval.
 * <pre>
 * file      := magic 0x02 uvarint(slotNanos) record* end
 * signature := as in version 1
 * timeline  := 0x02 svarint(threadId) svarint(startNanos)   defines the next timeline index (0, 1, 2, ...);
 *                                                          its slot k is [start + k*slotNanos, start + (k+1)*slotNanos)
 * pair      := 0x05 uvarint(callerId) uvarint(calleeId)      defines the next pair id (0, 1, 2, ...)
 * slot      := 0x06 uvarint(timelineIndex) uvarint(slotIndex) uvarint(entries) entry{entries}
 * entry     := uvarint(pairId) uvarint(count) uvarint(firstOffset) uvarint(lastOffset - firstOffset)
 * span      := 0x07 uvarint(timelineIndex) svarint(startNanos) svarint(endNanos)   optional: a request the thread handled
 * meta      := as in version 1
 * end       := as in version 1, counting join points (the sum of the entries' counts)
 * </pre>
 * Offsets are nanoseconds from the slot's start, below {@code slotNanos}. A timeline's slot
 * records come in increasing slot order (timelines interleave); a pair appears at most once in
 * a slot; a count of 1 has equal offsets. The time base is the writer's: the agent subtracts the
 * probe's own cost from every time stamp and says so in the meta records {@code timeBase} and
 * {@code probeCostNanos}.
 *
 * <p><b>Request spans</b> (optional, readers of version 2 before them reject the tag): a span is a
 * stretch of a timeline, in the file's time base, during which its thread handled one profiled
 * request; a timeline's spans come in time order and do not overlap. The meta record {@link
 * #REQUEST_SPANS} says that the profiler recorded them, and how: then a timeline without a span
 * handled no request, and the generator leaves it out ({@link SlotProfile}). A file without that
 * record is read as before spans existed.
 */
public final class BinaryProfileFormat {
    static final byte[] MAGIC = {'Q', 'W', 'P', 'F'};
    static final int VERSION = 1;
    static final int VERSION_SLOTS = 2;
    static final int END = 0x00;
    static final int SIGNATURE = 0x01;
    static final int THREAD = 0x02;
    static final int JOIN_POINT = 0x03;
    static final int META = 0x04;
    /** Version 2: a timeline (one thread) and its start. Same tag as version 1's thread record. */
    static final int TIMELINE = 0x02;
    static final int PAIR = 0x05;
    static final int SLOT = 0x06;
    static final int SPAN = 0x07;
    /**
     * Version 2 meta key: the file records request spans (its value says where they came from);
     * the generator then keeps only the parts of timelines inside one.
     */
    public static final String REQUEST_SPANS = "requestSpans";
    /** Version 2 meta key: what the time stamps are ({@code real: ...} when the probe's cost was taken out). */
    public static final String TIME_BASE = "timeBase";
    /** Version 2 meta key: the probe's cost per join point subtracted from the time stamps, in ns. */
    public static final String PROBE_COST_NANOS = "probeCostNanos";
    /** Version 2 meta key: the probe's estimated cost subtracted from the time stamps in all, in ns. */
    public static final String PROBE_REMOVED_NANOS = "probeRemovedNanos";
    /**
     * Version 2 meta key: the share of the time left once the probe's estimated cost is out that was
     * kept, measured against an unprofiled run (the rest is what the probe costs the code around it).
     */
    public static final String WORK_SHARE = "workShare";
    /** Version 2 meta key: what the work share took out of the time stamps in all, in ns. */
    public static final String WORK_SHARE_REMOVED_NANOS = "workShareRemovedNanos";
    /** Meta key: the profiler recorded which calls run with a monitor held (its value says how). */
    public static final String MONITORS_RECORDED = "monitors";
    /** Meta key prefix of one call made with a monitor held: {@code caller + "\t" + callee}. */
    public static final String IN_MONITOR_PREFIX = "inMonitor.";
    /** Longer strings are taken as corruption; real signatures are a few hundred bytes. */
    static final int MAX_STRING_BYTES = 1 << 16;

    private BinaryProfileFormat() {}
}
