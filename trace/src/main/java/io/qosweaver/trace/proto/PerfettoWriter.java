package io.qosweaver.trace.proto;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a Perfetto trace file: the protobuf {@code Trace { repeated TracePacket packet = 1; }},
 * packet after packet, hand-encoded (field numbers are Perfetto's, from
 * {@code protos/perfetto/trace/}; the tests parse the file with that schema).
 *
 * <p><b>The clock.</b> Every timestamp is CLOCK_MONOTONIC in nanoseconds, what
 * {@link System#nanoTime()} reads on Linux, and what the scheduler's ticker and JFR's own ticks
 * use: one clock for every level without a conversion on the hot path. Perfetto's default trace
 * clock is BOOTTIME, which Java cannot read, so the first packet is a {@code ClockSnapshot} that
 * names MONOTONIC the trace's primary clock (with a REALTIME reading beside it, so that the UI can
 * show wall-clock time), and every packet says {@code timestamp_clock_id = MONOTONIC}.
 *
 * <p>All packets are on one {@code trusted_packet_sequence_id}: one writer thread writes them, in
 * timestamp order. No string is interned (names are a few bytes).
 *
 * <p><b>The size cap.</b> Packets that would take the file past {@code maxBytes - reserveBytes}
 * are dropped and counted; the reserve keeps room for the closing statistics, written with
 * {@link #forceNext()}. The file never exceeds {@code maxBytes}.
 *
 * <p>Not thread-safe: one thread owns it.
 */
public final class PerfettoWriter implements AutoCloseable {
    public static final int CLOCK_REALTIME = 1;
    public static final int CLOCK_MONOTONIC = 3;
    public static final int SEQUENCE_ID = 1;

    public static final int TYPE_SLICE_BEGIN = 1;
    public static final int TYPE_SLICE_END = 2;
    public static final int TYPE_INSTANT = 3;
    public static final int TYPE_COUNTER = 4;

    public static final int UNIT_TIME_NS = 1;
    public static final int UNIT_COUNT = 2;
    public static final int UNIT_SIZE_BYTES = 3;

    // Trace
    private static final int TRACE_PACKET = 1;
    // TracePacket
    private static final int P_TIMESTAMP = 8;
    private static final int P_TIMESTAMP_CLOCK_ID = 58;
    private static final int P_TRACK_EVENT = 11;
    private static final int P_TRACK_DESCRIPTOR = 60;
    private static final int P_CLOCK_SNAPSHOT = 6;
    private static final int P_SEQUENCE_ID = 10;
    private static final int P_SEQUENCE_FLAGS = 13;
    private static final int P_FIRST_ON_SEQUENCE = 87;
    private static final int SEQ_INCREMENTAL_STATE_CLEARED = 1;
    // ClockSnapshot
    private static final int CS_CLOCKS = 1;
    private static final int CS_PRIMARY = 2;
    private static final int CLOCK_ID = 1;
    private static final int CLOCK_TIMESTAMP = 2;
    // TrackDescriptor
    private static final int TD_UUID = 1;
    private static final int TD_PARENT = 5;
    private static final int TD_NAME = 2;
    private static final int TD_PROCESS = 3;
    private static final int TD_THREAD = 4;
    private static final int TD_COUNTER = 8;
    // ProcessDescriptor
    private static final int PD_PID = 1;
    private static final int PD_CMDLINE = 2;
    private static final int PD_NAME = 6;
    // ThreadDescriptor
    private static final int THD_PID = 1;
    private static final int THD_TID = 2;
    private static final int THD_NAME = 5;
    // CounterDescriptor
    private static final int CD_CATEGORIES = 2;
    private static final int CD_UNIT = 3;
    // TrackEvent
    private static final int TE_CATEGORIES = 22;
    private static final int TE_NAME = 23;
    private static final int TE_TYPE = 9;
    private static final int TE_TRACK = 11;
    private static final int TE_COUNTER = 30;
    private static final int TE_DOUBLE_COUNTER = 44;
    private static final int TE_ANNOTATIONS = 4;
    // DebugAnnotation
    private static final int DA_NAME = 10;
    private static final int DA_INT = 4;
    private static final int DA_STRING = 6;

    private final OutputStream out;
    private final long maxBytes;
    private final long reserveBytes;
    private final ProtoBuffer buf = new ProtoBuffer();
    private long written;
    private long droppedPackets;
    private boolean first = true;
    private boolean force;

    /**
     * @throws IOException with the path in its message when the file cannot be created
     */
    public PerfettoWriter(Path file, long maxBytes, long reserveBytes) throws IOException {
        if (maxBytes < 1024) {
            throw new IllegalArgumentException("trace size cap " + maxBytes + " bytes is under 1 KiB");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        this.maxBytes = maxBytes;
        this.reserveBytes = Math.min(reserveBytes, maxBytes / 2);
    }

    /** Bytes written so far (the file's size once flushed). */
    public long written() {
        return written;
    }

    /** Packets dropped by the size cap. */
    public long droppedPackets() {
        return droppedPackets;
    }

    /** The next packet may use the reserve (the closing statistics). */
    public void forceNext() {
        force = true;
    }

    private int packet(long timestamp) {
        buf.clear();
        int p = buf.begin(TRACE_PACKET);
        if (timestamp >= 0) {
            buf.varint(P_TIMESTAMP, timestamp);
            buf.varint(P_TIMESTAMP_CLOCK_ID, CLOCK_MONOTONIC);
        }
        buf.varint(P_SEQUENCE_ID, SEQUENCE_ID);
        if (first) {
            buf.varint(P_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
            buf.bool(P_FIRST_ON_SEQUENCE, true);
            first = false;
        }
        return p;
    }

    private boolean commit(int packetMark) throws IOException {
        buf.end(packetMark);
        long limit = force ? maxBytes : maxBytes - reserveBytes;
        force = false;
        if (written + buf.size() > limit) {
            droppedPackets++;
            return false;
        }
        out.write(buf.array(), 0, buf.size());
        written += buf.size();
        return true;
    }

    /** The first packet: MONOTONIC is the trace's clock; REALTIME read at the same moment. */
    public boolean clockSnapshot(long monotonicNanos, long realtimeNanos) throws IOException {
        int p = packet(-1);
        int cs = buf.begin(P_CLOCK_SNAPSHOT);
        int c = buf.begin(CS_CLOCKS);
        buf.varint(CLOCK_ID, CLOCK_MONOTONIC);
        buf.varint(CLOCK_TIMESTAMP, monotonicNanos);
        buf.end(c);
        c = buf.begin(CS_CLOCKS);
        buf.varint(CLOCK_ID, CLOCK_REALTIME);
        buf.varint(CLOCK_TIMESTAMP, realtimeNanos);
        buf.end(c);
        buf.varint(CS_PRIMARY, CLOCK_MONOTONIC);
        buf.end(cs);
        return commit(p);
    }

    public boolean processTrack(long uuid, int pid, String name, String cmdline) throws IOException {
        int p = packet(-1);
        int td = buf.begin(P_TRACK_DESCRIPTOR);
        buf.varint(TD_UUID, uuid);
        int pd = buf.begin(TD_PROCESS);
        buf.varint(PD_PID, pid);
        if (cmdline != null) {
            buf.string(PD_CMDLINE, cmdline);
        }
        if (name != null) {
            buf.string(PD_NAME, name);
        }
        buf.end(pd);
        buf.end(td);
        return commit(p);
    }

    /** A thread's track; written again with the same uuid when its name becomes known. */
    public boolean threadTrack(long uuid, long parentUuid, int pid, int tid, String name) throws IOException {
        int p = packet(-1);
        int td = buf.begin(P_TRACK_DESCRIPTOR);
        buf.varint(TD_UUID, uuid);
        buf.varint(TD_PARENT, parentUuid);
        int thd = buf.begin(TD_THREAD);
        buf.varint(THD_PID, pid);
        buf.varint(THD_TID, tid);
        if (name != null) {
            buf.string(THD_NAME, name);
        }
        buf.end(thd);
        buf.end(td);
        return commit(p);
    }

    /** A named track under {@code parentUuid} (a thread's level, or a process-wide one like GC). */
    public boolean childTrack(long uuid, long parentUuid, String name) throws IOException {
        int p = packet(-1);
        int td = buf.begin(P_TRACK_DESCRIPTOR);
        buf.varint(TD_UUID, uuid);
        buf.varint(TD_PARENT, parentUuid);
        buf.string(TD_NAME, name);
        buf.end(td);
        return commit(p);
    }

    public boolean counterTrack(long uuid, long parentUuid, String name, String category, int unit) throws IOException {
        int p = packet(-1);
        int td = buf.begin(P_TRACK_DESCRIPTOR);
        buf.varint(TD_UUID, uuid);
        buf.varint(TD_PARENT, parentUuid);
        buf.string(TD_NAME, name);
        int cd = buf.begin(TD_COUNTER);
        if (category != null) {
            buf.string(CD_CATEGORIES, category);
        }
        buf.varint(CD_UNIT, unit);
        buf.end(cd);
        buf.end(td);
        return commit(p);
    }

    /**
     * A {@code TrackEvent}: {@code type} one of the TYPE_ constants; {@code name}, {@code category}
     * and {@code args} may be null (an end needs none of them).
     */
    public boolean event(long timestamp, long track, int type, String name, String category, Args args)
            throws IOException {
        int p = packet(timestamp);
        int te = buf.begin(P_TRACK_EVENT);
        buf.varint(TE_TYPE, type);
        buf.varint(TE_TRACK, track);
        if (category != null) {
            buf.string(TE_CATEGORIES, category);
        }
        if (name != null) {
            buf.string(TE_NAME, name);
        }
        if (args != null) {
            for (int i = 0; i < args.size(); i++) {
                int da = buf.begin(TE_ANNOTATIONS);
                buf.string(DA_NAME, args.name(i));
                String s = args.string(i);
                if (s != null) {
                    buf.string(DA_STRING, s);
                } else {
                    buf.varint(DA_INT, args.number(i));
                }
                buf.end(da);
            }
        }
        buf.end(te);
        return commit(p);
    }

    public boolean counter(long timestamp, long track, long value) throws IOException {
        int p = packet(timestamp);
        int te = buf.begin(P_TRACK_EVENT);
        buf.varint(TE_TYPE, TYPE_COUNTER);
        buf.varint(TE_TRACK, track);
        buf.varint(TE_COUNTER, value);
        buf.end(te);
        return commit(p);
    }

    public boolean counter(long timestamp, long track, double value) throws IOException {
        int p = packet(timestamp);
        int te = buf.begin(P_TRACK_EVENT);
        buf.varint(TE_TYPE, TYPE_COUNTER);
        buf.varint(TE_TRACK, track);
        buf.dbl(TE_DOUBLE_COUNTER, value);
        buf.end(te);
        return commit(p);
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
