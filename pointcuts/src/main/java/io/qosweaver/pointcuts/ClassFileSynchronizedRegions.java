package io.qosweaver.pointcuts;

import io.qosweaver.model.signature.Descriptors;
import io.qosweaver.model.signature.Signatures;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * {@link SynchronizedRegions} read from class files, parsed here (JVMS chapter 4) so that the
 * module needs no ASM: the constant pool, each method's {@code ACC_SYNCHRONIZED} flag, and its
 * {@code Code} attribute. For a method with {@code monitorenter}, the monitor depth before every
 * instruction is computed by a data-flow pass over the control-flow graph (branches, switches,
 * exception handlers; depths merged by maximum, so a doubt counts as "held"); a call instruction
 * ({@code invokevirtual}, {@code invokespecial}, {@code invokestatic}, {@code invokeinterface})
 * at depth greater than 0 is inside a synchronized block.
 *
 * <p>Callees are matched without their declaring type ({@link Signatures#withoutDeclaringType}):
 * the profile may record the receiver's class where the bytecode names the symbolic reference's
 * class, and excluding one candidate too many is harmless, one too few is not. Classes are read
 * lazily, once each, when a caller of theirs is asked about. Not thread-safe.
 */
public final class ClassFileSynchronizedRegions implements SynchronizedRegions {

    private static final int ACC_SYNCHRONIZED = 0x0020;
    private static final int MAX_DEPTH = 64;

    private record MethodInfo(boolean synchronizedMethod, Set<String> calleesInMonitor) {}

    private final Function<String, byte[]> classBytes;
    private final Map<String, MethodInfo> methods = new HashMap<>();
    private final Set<String> loaded = new HashSet<>();
    private final Set<String> missing = new TreeSet<>();

    /** @param classBytes binary class name ({@code a.b.Outer$Inner}) to its class file, or null */
    public ClassFileSynchronizedRegions(Function<String, byte[]> classBytes) {
        this.classBytes = classBytes;
    }

    /** Classes from directories and jar files, searched in order. */
    public static ClassFileSynchronizedRegions fromClassPath(List<Path> entries) {
        List<Path> copy = List.copyOf(entries);
        return new ClassFileSynchronizedRegions(name -> {
            String file = name.replace('.', '/') + ".class";
            for (Path e : copy) {
                try {
                    if (Files.isDirectory(e)) {
                        Path f = e.resolve(file);
                        if (Files.isRegularFile(f)) {
                            return Files.readAllBytes(f);
                        }
                    } else if (Files.isRegularFile(e)) {
                        try (ZipFile zip = new ZipFile(e.toFile())) {
                            ZipEntry z = zip.getEntry(file);
                            if (z != null) {
                                try (InputStream in = zip.getInputStream(z)) {
                                    return in.readAllBytes();
                                }
                            }
                        }
                    }
                } catch (IOException ex) {
                    // An unreadable entry is like a missing one: reported through missingClasses().
                }
            }
            return null;
        });
    }

    /**
     * The class path followed by the running JDK's modules ({@code jrt:/modules/*}), so that the
     * callers of a profile that included JDK packages ({@code sun.java2d.marlin}, ...) are checked
     * for synchronized code too. The JDK is the one running this code: profile and generate with
     * the same JDK. When the JDK's classes cannot be listed, {@code warn} hears why and the class
     * path alone is returned (JDK callers are then reported as missing classes).
     */
    public static List<Path> withJdkModules(List<Path> classPath, java.util.function.Consumer<String> warn) {
        List<Path> out = new java.util.ArrayList<>(classPath);
        try {
            java.nio.file.FileSystem jrt = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"));
            try (java.util.stream.Stream<Path> modules = Files.list(jrt.getPath("/modules"))) {
                modules.sorted().forEach(out::add);
            }
        } catch (IOException | RuntimeException e) {
            warn.accept("the JDK's classes cannot be read (" + e + "); callers in JDK packages are not checked "
                    + "for synchronized code");
        }
        return out;
    }

    /** Classes as resources of a class loader (e.g. the application's, in the agent). */
    public static ClassFileSynchronizedRegions fromClassLoader(ClassLoader loader) {
        return new ClassFileSynchronizedRegions(name -> {
            try (InputStream in = loader.getResourceAsStream(name.replace('.', '/') + ".class")) {
                return in == null ? null : in.readAllBytes();
            } catch (IOException e) {
                return null;
            }
        });
    }

    @Override
    public boolean holdsMonitor(String caller, String callee) {
        String type = Signatures.declaringType(caller);
        if (loaded.add(type)) {
            byte[] bytes = classBytes.apply(type);
            if (bytes == null) {
                missing.add(type);
            } else {
                try {
                    parse(bytes);
                } catch (IOException | RuntimeException e) {
                    missing.add(type + " (unreadable class file: " + e.getMessage() + ")");
                }
            }
        }
        MethodInfo m = methods.get(caller);
        return m != null && (m.synchronizedMethod() || m.calleesInMonitor().contains(Signatures.withoutDeclaringType(callee)));
    }

    @Override
    public List<String> missingClasses() {
        return List.copyOf(missing);
    }

    private void parse(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("bad magic number");
        }
        in.readUnsignedShort();
        in.readUnsignedShort();
        int cpCount = in.readUnsignedShort();
        int[] tag = new int[cpCount];
        int[] ref1 = new int[cpCount];
        int[] ref2 = new int[cpCount];
        String[] utf8 = new String[cpCount];
        for (int i = 1; i < cpCount; i++) {
            tag[i] = in.readUnsignedByte();
            switch (tag[i]) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 7, 8, 16, 19, 20 -> ref1[i] = in.readUnsignedShort();
                case 9, 10, 11, 12, 17, 18 -> {
                    ref1[i] = in.readUnsignedShort();
                    ref2[i] = in.readUnsignedShort();
                }
                case 15 -> {
                    in.readUnsignedByte();
                    ref1[i] = in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag[i] + " at index " + i);
            }
        }
        in.readUnsignedShort();
        String thisClass = utf8[ref1[in.readUnsignedShort()]];
        in.readUnsignedShort();
        in.skipBytes(2 * in.readUnsignedShort());
        int fields = in.readUnsignedShort();
        for (int f = 0; f < fields; f++) {
            in.skipBytes(6);
            skipAttributes(in);
        }
        int methodCount = in.readUnsignedShort();
        for (int k = 0; k < methodCount; k++) {
            int access = in.readUnsignedShort();
            String name = utf8[in.readUnsignedShort()];
            String desc = utf8[in.readUnsignedShort()];
            Set<String> inMonitor = Set.of();
            int attrs = in.readUnsignedShort();
            for (int a = 0; a < attrs; a++) {
                String attr = utf8[in.readUnsignedShort()];
                int len = in.readInt();
                if (attr.equals("Code") && (access & ACC_SYNCHRONIZED) == 0) {
                    in.readUnsignedShort();
                    in.readUnsignedShort();
                    byte[] code = new byte[in.readInt()];
                    in.readFully(code);
                    int handlers = in.readUnsignedShort();
                    int[] table = new int[handlers * 3];
                    for (int h = 0; h < handlers; h++) {
                        table[3 * h] = in.readUnsignedShort();
                        table[3 * h + 1] = in.readUnsignedShort();
                        table[3 * h + 2] = in.readUnsignedShort();
                        in.readUnsignedShort();
                    }
                    skipAttributes(in);
                    inMonitor = callsInMonitor(code, table, tag, ref1, ref2, utf8);
                } else {
                    in.skipBytes(len);
                }
            }
            methods.put(Signatures.fromDescriptor(thisClass, name, desc),
                    new MethodInfo((access & ACC_SYNCHRONIZED) != 0, inMonitor));
        }
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        for (int a = 0; a < n; a++) {
            in.readUnsignedShort();
            in.skipBytes(in.readInt());
        }
    }

    /** Callees (without declaring type) of the call instructions executed with a monitor held. */
    private static Set<String> callsInMonitor(byte[] code, int[] handlers, int[] tag, int[] ref1, int[] ref2, String[] utf8) {
        boolean hasMonitor = false;
        for (int pc = 0; pc < code.length; pc += length(code, pc)) {
            if ((code[pc] & 0xFF) == 0xC2) {
                hasMonitor = true;
                break;
            }
        }
        if (!hasMonitor) {
            return Set.of();
        }
        int[] depth = new int[code.length];
        Arrays.fill(depth, -1);
        ArrayDeque<Integer> work = new ArrayDeque<>();
        depth[0] = 0;
        work.add(0);
        List<Integer> succ = new ArrayList<>();
        while (!work.isEmpty()) {
            int pc = work.poll();
            int d = depth[pc];
            int op = code[pc] & 0xFF;
            int out = op == 0xC2 ? Math.min(MAX_DEPTH, d + 1) : op == 0xC3 ? Math.max(0, d - 1) : d;
            succ.clear();
            successors(code, pc, succ);
            for (int s : succ) {
                flow(depth, work, s, out, code.length);
            }
            for (int h = 0; h < handlers.length; h += 3) {
                if (pc >= handlers[h] && pc < handlers[h + 1]) {
                    flow(depth, work, handlers[h + 2], d, code.length);
                }
            }
        }
        Set<String> result = new HashSet<>();
        for (int pc = 0; pc < code.length; pc += length(code, pc)) {
            int op = code[pc] & 0xFF;
            if (op >= 0xB6 && op <= 0xB9 && depth[pc] > 0) {
                int ref = ((code[pc + 1] & 0xFF) << 8) | (code[pc + 2] & 0xFF);
                int nat = ref2[ref];
                String owner = utf8[ref1[ref1[ref]]];
                if (owner.startsWith("[")) {
                    owner = Descriptors.toName(owner);
                }
                String sig = Signatures.fromDescriptor(owner, utf8[ref1[nat]], utf8[ref2[nat]]);
                result.add(Signatures.withoutDeclaringType(sig));
            }
        }
        return result;
    }

    private static void flow(int[] depth, ArrayDeque<Integer> work, int target, int d, int codeLength) {
        if (target < 0 || target >= codeLength) {
            return;
        }
        if (depth[target] < d) {
            depth[target] = d;
            work.add(target);
        }
    }

    private static void successors(byte[] code, int pc, List<Integer> out) {
        int op = code[pc] & 0xFF;
        if ((op >= 0x99 && op <= 0xA8) || op == 0xC6 || op == 0xC7) {
            out.add(pc + (short) (((code[pc + 1] & 0xFF) << 8) | (code[pc + 2] & 0xFF)));
            if (op != 0xA7) {
                out.add(pc + 3);
            }
        } else if (op == 0xC8 || op == 0xC9) {
            out.add(pc + s4(code, pc + 1));
            if (op == 0xC9) {
                out.add(pc + 5);
            }
        } else if (op == 0xAA || op == 0xAB) {
            int p = (pc + 4) & ~3;
            out.add(pc + s4(code, p));
            if (op == 0xAA) {
                int low = s4(code, p + 4);
                int high = s4(code, p + 8);
                for (int k = 0; k <= high - low; k++) {
                    out.add(pc + s4(code, p + 12 + 4 * k));
                }
            } else {
                int pairs = s4(code, p + 4);
                for (int k = 0; k < pairs; k++) {
                    out.add(pc + s4(code, p + 12 + 8 * k));
                }
            }
        } else if ((op >= 0xAC && op <= 0xB1) || op == 0xBF || op == 0xA9) {
            // return, athrow, ret: no successor in this method (ret's targets follow their jsr).
        } else {
            out.add(pc + length(code, pc));
        }
    }

    private static int s4(byte[] code, int p) {
        return ((code[p] & 0xFF) << 24) | ((code[p + 1] & 0xFF) << 16) | ((code[p + 2] & 0xFF) << 8) | (code[p + 3] & 0xFF);
    }

    /** Instruction length in bytes (JVMS 6.5). */
    static int length(byte[] code, int pc) {
        int op = code[pc] & 0xFF;
        if (op == 0xAA) {
            int p = (pc + 4) & ~3;
            return p - pc + 12 + 4 * (s4(code, p + 8) - s4(code, p + 4) + 1);
        }
        if (op == 0xAB) {
            int p = (pc + 4) & ~3;
            return p - pc + 8 + 8 * s4(code, p + 4);
        }
        if (op == 0xC4) {
            return (code[pc + 1] & 0xFF) == 0x84 ? 6 : 4;
        }
        return LENGTHS[op];
    }

    private static final int[] LENGTHS = new int[256];

    static {
        Arrays.fill(LENGTHS, 1);
        LENGTHS[0x10] = 2;
        LENGTHS[0x11] = 3;
        LENGTHS[0x12] = 2;
        LENGTHS[0x13] = 3;
        LENGTHS[0x14] = 3;
        for (int op = 0x15; op <= 0x19; op++) {
            LENGTHS[op] = 2;
        }
        for (int op = 0x36; op <= 0x3A; op++) {
            LENGTHS[op] = 2;
        }
        LENGTHS[0x84] = 3;
        for (int op = 0x99; op <= 0xA8; op++) {
            LENGTHS[op] = 3;
        }
        LENGTHS[0xA9] = 2;
        for (int op = 0xB2; op <= 0xB8; op++) {
            LENGTHS[op] = 3;
        }
        LENGTHS[0xB9] = 5;
        LENGTHS[0xBA] = 5;
        LENGTHS[0xBB] = 3;
        LENGTHS[0xBC] = 2;
        LENGTHS[0xBD] = 3;
        LENGTHS[0xC0] = 3;
        LENGTHS[0xC1] = 3;
        LENGTHS[0xC5] = 4;
        LENGTHS[0xC6] = 3;
        LENGTHS[0xC7] = 3;
        LENGTHS[0xC8] = 5;
        LENGTHS[0xC9] = 5;
    }
}
