package io.qosweaver.scheduler;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The policy registry, by name. A plain map rather than ServiceLoader: this class is loaded by the
 * bootstrap class loader, which cannot see the application's service files.
 */
public final class Policies {
    private static final Map<String, Policy.Factory> FACTORIES = new ConcurrentHashMap<>();

    static {
        FACTORIES.put(ImportancePolicy.NAME, ImportancePolicy::create);
        // The paper's baselines (5.1), on the same task classes (importance: high|low).
        FACTORIES.put(AdmissionPolicy.NAME, AdmissionPolicy::create);
        FACTORIES.put(JavaPriorityPolicy.NAME, JavaPriorityPolicy::create);
        FACTORIES.put(LinuxPriorityPolicy.NAME, LinuxPriorityPolicy::create);
    }

    /** The policies this module ships, registered above (the contract test's population). */
    private static final Set<String> BUILT_IN = Set.copyOf(FACTORIES.keySet());

    private Policies() {}

    static Set<String> builtInNames() {
        return new TreeSet<>(BUILT_IN);
    }

    /** Registers (or replaces) a policy factory under a name. */
    public static void register(String name, Policy.Factory factory) {
        FACTORIES.put(name, factory);
    }

    /** The registered names, sorted. */
    public static Set<String> names() {
        return new TreeSet<>(FACTORIES.keySet());
    }

    static Policy.Factory get(String name) {
        return FACTORIES.get(name);
    }
}
