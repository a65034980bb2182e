package io.qosweaver.agent.unit.hooks;

import io.qosweaver.agent.weaving.Weaving;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JVM's own class bytes around the agent's weaving: two retransformation-capable transformers
 * that change nothing, one added before the weaving transformers ({@link #installFirst}) and one
 * after them ({@link #installLast}).
 *
 * <p>What the JVM hands them (JVMTI ClassFileLoadHook, {@code java.lang.instrument}): at a class's
 * first definition, the class file as the class loader gave it (after any transformer that cannot
 * retransform); at a retransformation, the class's initial bytes again, from the JVM's copy of
 * them when a retransformation-capable transformer changed the class at its first load, else
 * reconstituted from the loaded class; either way what the chain starts from, never the woven
 * bytes. Retransformation-capable transformers then run in the order they were added, each given
 * the previous one's output. So the first tap sees what the weaving starts from (the original),
 * and the last tap sees what the weaving produced: what the JVM defines, as no transformer comes
 * after it. A class is recorded when the last tap's bytes differ from the first tap's in one
 * event (woven); every later event of that class updates its "defined now" bytes. After
 * {@code unweave}, a class is byte-identical when the bytes the JVM defined at the unweaving
 * retransformation equal its original bytes. Transformers another agent adds after ours are not
 * seen; a class woven and never retransformed since still shows its woven bytes (not identical).
 */
public final class ClassBytesTaps {
    /** One woven class: its original bytes, the woven bytes (the last that differed), the bytes defined now. */
    private static final class Record {
        final String name;
        final java.lang.ref.WeakReference<ClassLoader> loader;
        final boolean boot;
        final byte[] original;
        volatile byte[] woven;
        volatile byte[] definedNow;
        volatile int events;

        Record(String name, ClassLoader loader, byte[] original, byte[] woven) {
            this.name = name;
            this.loader = new java.lang.ref.WeakReference<>(loader);
            this.boot = loader == null;
            this.original = original;
            this.woven = woven;
            this.definedNow = woven;
            this.events = 1;
        }
    }

    private final Map<String, Record> records = new ConcurrentHashMap<>();
    /** The first tap's input per class key, until the last tap of the same event (nested loads may come between). */
    private final ThreadLocal<Map<String, byte[]>> pending = ThreadLocal.withInitial(HashMap::new);
    private final ClassFileTransformer first = new ClassFileTransformer() {
        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] b) {
            return before(loader, name, redefined, pd, b);
        }
    };
    private final ClassFileTransformer last = new ClassFileTransformer() {
        @Override
        public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain pd, byte[] b) {
            return after(loader, name, redefined, pd, b);
        }
    };

    /** Adds the first tap: call before the weaving transformers are added. */
    public void installFirst(Instrumentation inst) {
        // everything the taps run, loaded now rather than inside a transformation
        new Record("", null, new byte[0], new byte[0]);
        pending.get().clear();
        key("", null);
        inst.addTransformer(first, true);
    }

    /** Adds the last tap: call after the weaving transformers are added. */
    public void installLast(Instrumentation inst) {
        inst.addTransformer(last, true);
    }

    /** Removes both taps (what they recorded stays readable). */
    public void uninstall(Instrumentation inst) {
        inst.removeTransformer(first);
        inst.removeTransformer(last);
    }

    private byte[] before(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain pd,
            byte[] bytes) {
        if (internalName != null && bytes != null && !internalName.startsWith("io/qosweaver/agent/")
                && !(loader instanceof Weaving.NeverWoven)) {
            pending.get().put(key(internalName, loader), bytes.clone());
        }
        return null;
    }

    private byte[] after(ClassLoader loader, String internalName, Class<?> redefined, ProtectionDomain pd,
            byte[] bytes) {
        if (internalName == null || bytes == null || internalName.startsWith("io/qosweaver/agent/")
                || loader instanceof Weaving.NeverWoven) {
            return null; // the agent's own (its start-up rehearsal weaves and unweaves one of them)
        }
        String key = key(internalName, loader);
        byte[] input = pending.get().remove(key);
        Record r = records.get(key);
        if (r != null) {
            r.definedNow = bytes.clone();
            r.events++;
            if (!Arrays.equals(bytes, r.original)) {
                r.woven = r.definedNow;
            }
        } else if (input != null && !Arrays.equals(input, bytes)) {
            records.put(key, new Record(internalName.replace('/', '.'), loader, input, bytes.clone()));
        }
        return null;
    }

    /**
     * As {@code WeavingStats.classKey} makes it, without touching a class of ours that may not be
     * loaded yet: a tap that loads a class while that class is being defined defines it twice.
     */
    private static String key(String internalName, ClassLoader loader) {
        return internalName + "@" + (loader == null ? "bootstrap" : Integer.toHexString(System.identityHashCode(loader)));
    }

    /** What the taps saw, as the status JSON shows it. */
    public Map<String, Object> report() {
        long originalBytes = 0;
        long wovenBytes = 0;
        int identical = 0;
        List<String> differing = new ArrayList<>();
        Map<String, Record> sorted = new TreeMap<>(records);
        for (Record r : sorted.values()) {
            originalBytes += r.original.length;
            wovenBytes += r.woven.length;
            if (Arrays.equals(r.definedNow, r.original)) {
                identical++;
            } else {
                differing.add(r.name);
            }
        }
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("classesWoven", sorted.size());
        m.put("originalBytes", originalBytes);
        m.put("wovenBytes", wovenBytes);
        m.put("identicalNow", identical);
        m.put("differingNow", differing.size());
        m.put("differing", differing.size() > 50 ? differing.subList(0, 50) : differing);
        return m;
    }

    /**
     * What the woven classes take in metaspace more than their originals: both versions of every
     * woven class defined ({@link MetaspaceCost}), in class loaders of their own whose parent is
     * the class's loader.
     */
    public MetaspaceCost.Result metaspaceCost(int repeats) {
        Map<ClassLoader, Map<String, byte[][]>> byLoader = new java.util.IdentityHashMap<>();
        Map<String, byte[][]> boot = new java.util.LinkedHashMap<>();
        for (Record r : new TreeMap<>(records).values()) {
            ClassLoader l = r.loader.get();
            if (r.boot) {
                boot.put(r.name, new byte[][] {r.original, r.woven});
            } else if (l != null) {
                byLoader.computeIfAbsent(l, x -> new java.util.LinkedHashMap<>()).put(r.name,
                        new byte[][] {r.original, r.woven});
            }
        }
        List<MetaspaceCost.Group> groups = new ArrayList<>();
        if (!boot.isEmpty()) {
            groups.add(new MetaspaceCost.Group(null, boot));
        }
        byLoader.forEach((l, m) -> groups.add(new MetaspaceCost.Group(l, m)));
        return MetaspaceCost.measure(groups, repeats);
    }

    /** The keys and names of the woven classes, in key order. */
    List<String> names() {
        return new TreeMap<>(records).values().stream().map(r -> r.name).toList();
    }

    /** Whether the bytes the JVM defined last for class {@code name} (any loader) equal its original bytes; null if never woven. */
    public Boolean identicalNow(String name) {
        for (Record r : records.values()) {
            if (r.name.equals(name)) {
                return Arrays.equals(r.definedNow, r.original);
            }
        }
        return null;
    }
}
