package io.qosweaver.trace.proto;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that encodes the protobuf wire format by hand, so that the agent carries
 * no protobuf runtime. Nested messages are written in one pass: {@link #begin} reserves a length of
 * {@value #LENGTH_BYTES} bytes written later as a redundant (zero-padded) varint, which every
 * protobuf parser accepts and Perfetto's own protozero writer also uses. A nested message is
 * therefore limited to 2^28 - 1 bytes, far above one trace packet.
 *
 * <p>Not thread-safe: one writer thread owns an instance and reuses it for every packet.
 */
public final class ProtoBuffer {
    static final int LENGTH_BYTES = 4;
    private static final int MAX_NESTED = (1 << 28) - 1;
    private static final int WIRE_VARINT = 0;
    private static final int WIRE_FIXED64 = 1;
    private static final int WIRE_LENGTH = 2;

    private byte[] bytes = new byte[4096];
    private int size;

    public int size() {
        return size;
    }

    public byte[] array() {
        return bytes;
    }

    public void clear() {
        size = 0;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    private void rawVarint(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
    }

    private void tag(int field, int wire) {
        rawVarint(((long) field << 3) | wire);
    }

    /** uint32, uint64, int32 and int64 fields (negative values take ten bytes, as protobuf says). */
    public void varint(int field, long value) {
        tag(field, WIRE_VARINT);
        rawVarint(value);
    }

    public void bool(int field, boolean value) {
        varint(field, value ? 1 : 0);
    }

    public void dbl(int field, double value) {
        tag(field, WIRE_FIXED64);
        ensure(8);
        long v = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (v >>> (8 * i));
        }
    }

    public void string(int field, String value) {
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        tag(field, WIRE_LENGTH);
        rawVarint(b.length);
        ensure(b.length);
        System.arraycopy(b, 0, bytes, size, b.length);
        size += b.length;
    }

    /** Opens a nested message (or a packet of a {@code Trace}); returns the mark for {@link #end}. */
    public int begin(int field) {
        tag(field, WIRE_LENGTH);
        ensure(LENGTH_BYTES);
        int mark = size;
        size += LENGTH_BYTES;
        return mark;
    }

    /** Closes the nested message opened at {@code mark}, writing its length as a padded varint. */
    public void end(int mark) {
        int len = size - mark - LENGTH_BYTES;
        if (len > MAX_NESTED) {
            throw new IllegalStateException("nested message of " + len + " bytes is over the 2^28 - 1 limit");
        }
        for (int i = 0; i < LENGTH_BYTES; i++) {
            int seven = (len >>> (7 * i)) & 0x7F;
            bytes[mark + i] = (byte) (i < LENGTH_BYTES - 1 ? seven | 0x80 : seven);
        }
    }
}
