package io.qosweaver.pointcuts;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Streams every join point into the {@link BinaryProfileFormat binary profile}, version 1: the
 * exact record of a profiled run, about 7 bytes a join point. Beyond the shared state of
 * {@link ProfileWriter} it keeps one time stamp per thread. For profiles of real size (hundreds
 * of millions of join points) the agent writes version 2 ({@link SlotProfileWriter}) instead.
 */
public final class BinaryProfileWriter extends ProfileWriter {
    private final Map<Long, int[]> threadIndex = new HashMap<>();
    private long[] lastTime = new long[16];
    // the agent writes a chunk of one thread at a time: skip the map (and its boxing) for it
    private long lastThreadId = Long.MIN_VALUE;
    private int lastThreadIndex = -1;

    public BinaryProfileWriter(OutputStream out, Limits limits) {
        super(out, limits, BinaryProfileFormat.VERSION);
    }

    public static BinaryProfileWriter open(Path file) throws IOException {
        return open(file, Limits.DEFAULT);
    }

    public static BinaryProfileWriter open(Path file, Limits limits) throws IOException {
        return new BinaryProfileWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), limits);
    }

    @Override
    boolean record(long timeNanos, long threadId, int callerId, int calleeId) throws IOException {
        int ti;
        if (threadId == lastThreadId) {
            ti = lastThreadIndex;
        } else {
            int[] t = threadIndex.get(threadId);
            if (t == null) {
                if (threadLimit(threadIndex.size())) {
                    return false;
                }
                t = new int[] {threadIndex.size()};
                threadIndex.put(threadId, t);
                if (t[0] == lastTime.length) {
                    lastTime = Arrays.copyOf(lastTime, lastTime.length * 2);
                }
                ensure(12);
                putByte(BinaryProfileFormat.THREAD);
                putSigned(threadId);
            }
            ti = t[0];
            lastThreadId = threadId;
            lastThreadIndex = ti;
        }
        ensure(1 + 5 + 10 + 5 + 5);
        putByte(BinaryProfileFormat.JOIN_POINT);
        putUnsigned(ti);
        putSigned(timeNanos - lastTime[ti]);
        lastTime[ti] = timeNanos;
        putUnsigned(callerId);
        putUnsigned(calleeId);
        return true;
    }
}
