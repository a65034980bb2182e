package io.qosweaver.agent.unit.hooks;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What a set of classes takes in metaspace: the classes are defined (parsed, not linked or
 * initialized) in fresh class loaders, child-first, each with the class's own loader as its
 * parent, and the {@code Metaspace} pool's used bytes are read before and after. Done for the
 * original and the woven versions in turns, {@code repeats} times; the medians are reported.
 * Parsing makes what a class's code takes (constant pool, methods and their bytecode, stack maps);
 * what linking adds later (the constant pool cache, one entry per call site) is not in it, nor is
 * what running adds (method counters and profiles). Metaspace is also used by other threads
 * meanwhile (the JIT's method profiles): the repeats show that noise as a spread.
 */
public final class MetaspaceCost {
    private MetaspaceCost() {}

    /** Classes of one loader: name to {original, woven}. */
    public record Group(ClassLoader parent, Map<String, byte[][]> classes) {}

    /**
     * @param originalBytes medians of the metaspace used by defining the originals
     * @param wovenBytes the same for the woven versions
     * @param failed classes that could not be defined alone (an access check to a class left in its own loader)
     */
    public record Result(long originalBytes, long wovenBytes, long[] originalRuns, long[] wovenRuns, int classes,
                         int failed) {
        public long extraBytes() {
            return wovenBytes - originalBytes;
        }
    }

    public static Result measure(List<Group> groups, int repeats) {
        MemoryPoolMXBean pool = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getName().equals("Metaspace")).findFirst().orElse(null);
        long[] orig = new long[repeats];
        long[] woven = new long[repeats];
        int[] failed = new int[1];
        int classes = groups.stream().mapToInt(g -> g.classes().size()).sum();
        if (pool == null || classes == 0) {
            return new Result(0, 0, orig, woven, classes, 0);
        }
        for (int i = 0; i < repeats; i++) {
            failed[0] = 0;
            orig[i] = defineAll(pool, groups, 0, failed);
            int failedOriginal = failed[0];
            failed[0] = 0;
            woven[i] = defineAll(pool, groups, 1, failed);
            failed[0] = Math.max(failed[0], failedOriginal);
        }
        return new Result(median(orig), median(woven), orig, woven, classes, failed[0]);
    }

    private static long defineAll(MemoryPoolMXBean pool, List<Group> groups, int version, int[] failed) {
        Definer[] loaders = new Definer[groups.size()];
        long before = pool.getUsage().getUsed();
        for (int g = 0; g < loaders.length; g++) {
            loaders[g] = new Definer(groups.get(g).parent(), groups.get(g).classes(), version);
            for (String name : groups.get(g).classes().keySet()) {
                try {
                    loaders[g].loadClass(name);
                } catch (ClassNotFoundException | LinkageError | SecurityException e) {
                    failed[0]++;
                }
            }
        }
        long used = pool.getUsage().getUsed() - before;
        Arrays.fill(loaders, null); // unloaded at a later GC
        return used;
    }

    private static long median(long[] runs) {
        long[] s = runs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** Defines its classes itself (child-first), so that a class and its woven neighbours share a runtime package. */
    private static final class Definer extends ClassLoader implements io.qosweaver.agent.weaving.Weaving.NeverWoven {
        private final Map<String, byte[][]> classes;
        private final int version;

        Definer(ClassLoader parent, Map<String, byte[][]> classes, int version) {
            super(parent);
            this.classes = classes;
            this.version = version;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c != null) {
                    return c;
                }
                byte[][] both = classes.get(name);
                if (both == null) {
                    return super.loadClass(name, resolve);
                }
                byte[] b = both[version];
                return defineClass(name, b, 0, b.length);
            }
        }
    }
}
