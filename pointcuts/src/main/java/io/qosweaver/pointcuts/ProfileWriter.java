package io.qosweaver.pointcuts;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * What both binary profile writers share: a 64 KiB buffer with LEB128 numbers, the signature
 * table, meta records, the limits and the end record. Version 1 ({@link BinaryProfileWriter})
 * writes every join point; version 2 ({@link SlotProfileWriter}) writes slot summaries.
 *
 * <p>Memory is bounded by the limits: the signature table ({@code maxSignatures}), per-thread
 * state ({@code maxThreads}) and the buffer; the file by {@code maxBytes}. When a limit is
 * reached the writer stops recording: {@link #joinPoint} returns false, {@link #limitMessage()}
 * says which limit and what to change, and {@link #close()} records it in a {@code limit} meta
 * record so that the generator can warn that the profile is partial.
 *
 * <p>Not thread-safe: the agent's recorders buffer join points per thread (ids, not strings,
 * through {@link #signatureId}) and one thread drains them here.
 */
public abstract sealed class ProfileWriter implements ProfileSink, Closeable
        permits BinaryProfileWriter, SlotProfileWriter {

    /** The bounds on memory and file size; {@link #DEFAULT} is generous for a profiling run. */
    public record Limits(int maxSignatures, int maxThreads, long maxBytes) {
        public static final Limits DEFAULT = new Limits(1 << 20, 1 << 16, 1L << 32);
    }

    private final OutputStream out;
    final Limits limits;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private long flushed;
    private final Map<String, Integer> signatureIds = new HashMap<>();
    long count;
    private String limitMessage;
    private boolean closed;

    ProfileWriter(OutputStream out, Limits limits, int version) {
        this.out = out;
        this.limits = limits;
        System.arraycopy(BinaryProfileFormat.MAGIC, 0, buf, 0, BinaryProfileFormat.MAGIC.length);
        pos = BinaryProfileFormat.MAGIC.length;
        buf[pos++] = (byte) version;
    }

    /**
     * The id of a canonical signature, writing its definition on first use; -1 once the
     * signature limit is reached (then nothing more is recorded).
     */
    public final int signatureId(String canonical) throws IOException {
        Integer id = signatureIds.get(canonical);
        if (id != null) {
            return id;
        }
        if (limitMessage != null) {
            return -1;
        }
        if (signatureIds.size() >= limits.maxSignatures()) {
            limit("the profile reached " + limits.maxSignatures()
                    + " distinct signatures (maxSignatures); profile fewer packages or raise the limit");
            return -1;
        }
        byte[] utf8 = canonical.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > BinaryProfileFormat.MAX_STRING_BYTES) {
            throw new IllegalArgumentException("signature longer than " + BinaryProfileFormat.MAX_STRING_BYTES + " bytes");
        }
        ensure(1);
        buf[pos++] = BinaryProfileFormat.SIGNATURE;
        putBytes(utf8);
        id = signatureIds.size();
        signatureIds.put(canonical, id);
        return id;
    }

    @Override
    public final void joinPoint(long timeNanos, long threadId, String caller, String callee) throws IOException {
        int c1 = signatureId(caller);
        int c2 = signatureId(callee);
        if (c1 >= 0 && c2 >= 0) {
            joinPoint(timeNanos, threadId, c1, c2);
        }
    }

    /**
     * Records a join point with ids from {@link #signatureId}. A thread's time stamps are expected
     * not to decrease (what {@code System.nanoTime()} gives one thread).
     *
     * @return false if a limit has been reached and the join point was not recorded
     */
    public final boolean joinPoint(long timeNanos, long threadId, int callerId, int calleeId) throws IOException {
        if (limitMessage != null || callerId < 0 || calleeId < 0) {
            return false;
        }
        if (callerId >= signatureIds.size() || calleeId >= signatureIds.size()) {
            throw new IllegalArgumentException("signature id not defined by signatureId(): " + Math.max(callerId, calleeId));
        }
        if (bytesWritten() + 40 > limits.maxBytes()) {
            limit("the profile reached " + limits.maxBytes() + " bytes (maxBytes); profile a shorter run or raise the limit");
            return false;
        }
        if (!record(timeNanos, threadId, callerId, calleeId)) {
            return false;
        }
        count++;
        return true;
    }

    /** The format's own recording of one checked join point; false if a limit stopped it. */
    abstract boolean record(long timeNanos, long threadId, int callerId, int calleeId) throws IOException;

    /** Before the end record: what the format still holds back (version 2: the open slots). */
    void finish() throws IOException {
    }

    /** The thread limit, checked by the formats when a thread is first seen. */
    final boolean threadLimit(int threadsSoFar) {
        if (threadsSoFar >= limits.maxThreads()) {
            limit("the profile reached " + limits.maxThreads() + " threads (maxThreads); profile fewer threads or raise the limit");
            return true;
        }
        return false;
    }

    /** A key and value for the reader, e.g. the packages profiled. */
    public final void meta(String key, String value) throws IOException {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        if (k.length > BinaryProfileFormat.MAX_STRING_BYTES || v.length > BinaryProfileFormat.MAX_STRING_BYTES) {
            throw new IllegalArgumentException("meta key or value longer than " + BinaryProfileFormat.MAX_STRING_BYTES + " bytes");
        }
        ensure(1);
        buf[pos++] = BinaryProfileFormat.META;
        putBytes(k);
        putBytes(v);
    }

    public final long joinPointCount() {
        return count;
    }

    public final long bytesWritten() {
        return flushed + pos;
    }

    public final boolean limitReached() {
        return limitMessage != null;
    }

    /** Which limit stopped the recording and what to change; null while recording. */
    public final String limitMessage() {
        return limitMessage;
    }

    public final void flush() throws IOException {
        flush0();
        out.flush();
    }

    /** Writes what is held back and the end record; a file without it reads as truncated. */
    @Override
    public final void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            finish();
            if (limitMessage != null) {
                meta("limit", limitMessage);
            }
            ensure(11);
            buf[pos++] = BinaryProfileFormat.END;
            putUnsigned(count);
            flush0();
        } finally {
            out.close();
        }
    }

    final void limit(String message) {
        limitMessage = message;
    }

    final void ensure(int n) throws IOException {
        if (buf.length - pos < n) {
            flush0();
        }
    }

    final void putByte(int b) {
        buf[pos++] = (byte) b;
    }

    private void putBytes(byte[] b) throws IOException {
        ensure(10);
        putUnsigned(b.length);
        if (b.length > buf.length - pos) {
            flush0();
            out.write(b);
            flushed += b.length;
        } else {
            System.arraycopy(b, 0, buf, pos, b.length);
            pos += b.length;
        }
    }

    private void flush0() throws IOException {
        if (pos > 0) {
            out.write(buf, 0, pos);
            flushed += pos;
            pos = 0;
        }
    }

    /** Zigzag LEB128; at most 10 bytes (the caller {@link #ensure}s room). */
    final void putSigned(long v) {
        putUnsigned((v << 1) ^ (v >> 63));
    }

    /** LEB128; at most 10 bytes (the caller {@link #ensure}s room). */
    final void putUnsigned(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }
}
