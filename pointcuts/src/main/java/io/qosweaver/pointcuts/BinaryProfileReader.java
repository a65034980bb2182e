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

/** Reads the {@link BinaryProfileFormat binary profile}, streaming; errors name the byte offset. */
public final class BinaryProfileReader {

    /** What a file held besides its join points. */
    public record Summary(long joinPoints, int signatures, int threads, Map<String, String> meta) {}

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

    private interface Target {
        void signature(int id, String text) throws IOException;

        void joinPoint(long time, long thread, int caller, int callee) throws IOException;
    }

    private Summary run(Target target) throws IOException {
        for (int i = 0; i < BinaryProfileFormat.MAGIC.length; i++) {
            if (!more() || buf[pos++] != BinaryProfileFormat.MAGIC[i]) {
                throw error(0, "not a QoSWeaver binary profile (bad magic number)");
            }
        }
        int version = readByte(0, "header");
        if (version != BinaryProfileFormat.VERSION) {
            throw error(4, "unsupported binary profile version " + version + " (this reader knows version "
                    + BinaryProfileFormat.VERSION + ")");
        }
        int signatures = 0;
        long[] threadIds = new long[16];
        long[] lastTime = new long[16];
        int threads = 0;
        long count = 0;
        Map<String, String> meta = new LinkedHashMap<>();
        while (true) {
            long at = offset();
            if (!more()) {
                throw error(at, "truncated: the file ends without its end record after " + count
                        + " join points (was the profiler stopped before it closed the file?)");
            }
            int tag = buf[pos++] & 0xFF;
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
                    long declared = readUnsigned(at, "end");
                    if (declared != count) {
                        throw error(at, "corrupt: the end record counts " + declared + " join points but the file has " + count);
                    }
                    if (more()) {
                        throw error(offset(), "corrupt: data after the end record");
                    }
                    return new Summary(count, signatures, threads, meta);
                }
                default -> throw error(at, String.format("corrupt: unknown record tag 0x%02x", tag));
            }
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
