package io.qosweaver.pointcuts;

/**
 * The binary profile, version 1: what the agent's profiling mode writes. Little to decode, 6 to 9
 * bytes per join point (a tag, the thread index, the time delta, two ids), written as a stream so
 * that the writer keeps only the signature table and one time stamp per thread in memory.
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
 */
public final class BinaryProfileFormat {
    static final byte[] MAGIC = {'Q', 'W', 'P', 'F'};
    static final int VERSION = 1;
    static final int END = 0x00;
    static final int SIGNATURE = 0x01;
    static final int THREAD = 0x02;
    static final int JOIN_POINT = 0x03;
    static final int META = 0x04;
    /** Meta key: the profiler recorded which calls run with a monitor held (its value says how). */
    public static final String MONITORS_RECORDED = "monitors";
    /** Meta key prefix of one call made with a monitor held: {@code caller + "\t" + callee}. */
    public static final String IN_MONITOR_PREFIX = "inMonitor.";
    /** Longer strings are taken as corruption; real signatures are a few hundred bytes. */
    static final int MAX_STRING_BYTES = 1 << 16;

    private BinaryProfileFormat() {}
}
