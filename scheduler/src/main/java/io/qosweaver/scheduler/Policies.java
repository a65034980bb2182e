package io.qosweaver.scheduler;

import io.qosweaver.scheduler.policy.BuiltInPolicies;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.PolicyContext;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The policy registry, by name: the built-in policies, and any a caller registers. A plain map
 * rather than ServiceLoader: this class is loaded by the bootstrap class loader, which cannot see
 * an application's service files. It lives here rather than in the SPI because it names the
 * built-in policies, which the SPI must not know.
 */
public final class Policies {
    private static final Map<String, Policy.Factory> FACTORIES = new ConcurrentHashMap<>(BuiltInPolicies.factories());
    private static final Set<String> BUILT_IN = Set.copyOf(BuiltInPolicies.factories().keySet());

    private Policies() {}

    /** The policies this module ships (the contract test's and the simulator's population). */
    public static Set<String> builtInNames() {
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

    /** The factory registered under {@code name}, or null. */
    public static Policy.Factory get(String name) {
        return name == null ? null : FACTORIES.get(name);
    }

    /**
     * Builds the named policy.
     *
     * @throws PolicyConfigException naming {@code policy.name} when none is registered under it, or
     *     the factory's own complaint about a parameter
     */
    public static Policy create(String name, PolicyContext context) {
        if (name == null || name.isBlank()) {
            throw new PolicyConfigException("policy.name",
                    "the policy has no name; set policy.name to one of " + names());
        }
        Policy.Factory f = get(name.trim());
        if (f == null) {
            throw new PolicyConfigException("policy.name", "unknown policy '" + name + "'; use one of " + names());
        }
        return f.create(context);
    }
}
