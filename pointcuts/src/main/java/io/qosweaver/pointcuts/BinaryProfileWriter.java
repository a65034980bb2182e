package io.qosweaver.pointcuts;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams join points into the {@link BinaryProfileFormat binary profile}. Memory is bounded by
 * the limits: the signature table ({@code maxSignatures}), one time stamp per thread
 * ({@code maxThreads}) and a 64 KiB buffer; the file by {@code maxBytes}. When a limit is
 * reached the writer stops recording: {@link #joinPoint} returns false, {@link #limitMessage()}
 * says which limit and what to change, and {@link #close()} records it in a {@code limit} meta
 * record so that the generator can warn that the profile is partial.
 *
 * <p>Not thread-safe: the agent's recorders buffer join points per thread (ids, not strings,
 * through {@link #signatureId}) and one thread drains them here.
 */
public final class BinaryProfileWriter implements ProfileSink, Closeable {

    /** The bounds on memory and file size; {@link #DEFAULT} is generous for a profiling run. */
    public record Limits(int maxSignatures, int maxThreads, long maxBytes) {
        public static final Limits DEFAULT = new Limits(1 << 20, 1 << 16, 1L << 32);
    }

    private final OutputStream out;
    private final Limits limits;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private long flushed;
    private final Map<String, Integer> signatureIds = new HashMap<>();
    private final Map<Long, int[]> threadIndex = new HashMap<>();
    private long[] lastTime = new long[16];
    private long count;
    // the agent writes a chunk of one thread at a time: skip the map (and its boxing) for it
    private long lastThreadId = Long.MIN_VALUE;
    private int lastThreadIndex = -1;
    private String limitMessage;
    private boolean closed;

    public BinaryProfileWriter(OutputStream out, Limits limits) throws IOException {
        this.out = out;
        this.limits = limits;
        System.arraycopy(BinaryProfileFormat.MAGIC, 0, buf, 0, BinaryProfileFormat.MAGIC.length);
        pos = BinaryProfileFormat.MAGIC.length;
        buf[pos++] = (byte) BinaryProfileFormat.VERSION;
    }

    public static BinaryProfileWriter open(Path file) throws IOException {
        return open(file, Limits.DEFAULT);
    }

    public static BinaryProfileWriter open(Path file, Limits limits) throws IOException {
        return new BinaryProfileWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), limits);
    }

    /**
     * The id of a canonical signature, writing its definition on first use; -1 once the
     * signature limit is reached (then nothing more is recorded).
     */
    public int signatureId(String canonical) throws IOException {
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
        ensure(11 + utf8.length);
        buf[pos++] = BinaryProfileFormat.SIGNATURE;
        putUnsigned(utf8.length);
        if (utf8.length > buf.length - pos) {
            flush0();
            out.write(utf8);
            flushed += utf8.length;
        } else {
            System.arraycopy(utf8, 0, buf, pos, utf8.length);
            pos += utf8.length;
        }
        id = signatureIds.size();
        signatureIds.put(canonical, id);
        return id;
    }

    @Override
    public void joinPoint(long timeNanos, long threadId, String caller, String callee) throws IOException {
        int c1 = signatureId(caller);
        int c2 = signatureId(callee);
        if (c1 >= 0 && c2 >= 0) {
            joinPoint(timeNanos, threadId, c1, c2);
        }
    }

    /**
     * Records a join point with ids from {@link #signatureId}.
     *
     * @return false if a limit has been reached and the join point was not recorded
     */
    public boolean joinPoint(long timeNanos, long threadId, int callerId, int calleeId) throws IOException {
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
        int ti;
        if (threadId == lastThreadId) {
            ti = lastThreadIndex;
        } else {
            int[] t = threadIndex.get(threadId);
            if (t == null) {
                if (threadIndex.size() >= limits.maxThreads()) {
                    limit("the profile reached " + limits.maxThreads() + " threads (maxThreads); profile fewer threads or raise the limit");
                    return false;
                }
                t = new int[] {threadIndex.size()};
                threadIndex.put(threadId, t);
                if (t[0] == lastTime.length) {
                    lastTime = java.util.Arrays.copyOf(lastTime, lastTime.length * 2);
                }
                ensure(12);
                buf[pos++] = BinaryProfileFormat.THREAD;
                putSigned(threadId);
            }
            ti = t[0];
            lastThreadId = threadId;
            lastThreadIndex = ti;
        }
        ensure(1 + 5 + 10 + 5 + 5);
        buf[pos++] = BinaryProfileFormat.JOIN_POINT;
        putUnsigned(ti);
        putSigned(timeNanos - lastTime[ti]);
        lastTime[ti] = timeNanos;
        putUnsigned(callerId);
        putUnsigned(calleeId);
        count++;
        return true;
    }

    /** A key and value for the reader, e.g. the packages profiled. */
    public void meta(String key, String value) throws IOException {
        byte[] k = key.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        if (k.length > BinaryProfileFormat.MAX_STRING_BYTES || v.length > BinaryProfileFormat.MAX_STRING_BYTES) {
            throw new IllegalArgumentException("meta key or value longer than " + BinaryProfileFormat.MAX_STRING_BYTES + " bytes");
        }
        flush0();
        ensure(1);
        buf[pos++] = BinaryProfileFormat.META;
        putUnsigned(k.length);
        flush0();
        out.write(k);
        flushed += k.length;
        putUnsigned(v.length);
        flush0();
        out.write(v);
        flushed += v.length;
    }

    public long joinPointCount() {
        return count;
    }

    public long bytesWritten() {
        return flushed + pos;
    }

    public boolean limitReached() {
        return limitMessage != null;
    }

    /** Which limit stopped the recording and what to change; null while recording. */
    public String limitMessage() {
        return limitMessage;
    }

    public void flush() throws IOException {
        flush0();
        out.flush();
    }

    /** Writes the end record; a file without it reads as truncated. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
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

    private void limit(String message) {
        limitMessage = message;
    }

    private void ensure(int n) throws IOException {
        if (buf.length - pos < n) {
            flush0();
        }
    }

    private void flush0() throws IOException {
        if (pos > 0) {
            out.write(buf, 0, pos);
            flushed += pos;
            pos = 0;
        }
    }

    private void putSigned(long v) {
        putUnsigned((v << 1) ^ (v >> 63));
    }

    private void putUnsigned(long v) {
        while ((v & ~0x7FL) != 0) {
            buf[pos++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[pos++] = (byte) v;
    }
}
