package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Policy;
import java.util.LinkedHashMap;
import java.util.Map;

/** The policies this module ships, by the name a policy file uses. */
public final class BuiltInPolicies {
    private BuiltInPolicies() {}

    public static Map<String, Policy.Factory> factories() {
        Map<String, Policy.Factory> m = new LinkedHashMap<>();
        m.put(ImportancePolicy.NAME, ImportancePolicy::create);
        // The paper's baselines (5.1), on the same task classes (importance: high|low).
        m.put(AdmissionPolicy.NAME, AdmissionPolicy::create);
        m.put(JavaPriorityPolicy.NAME, JavaPriorityPolicy::create);
        m.put(LinuxPriorityPolicy.NAME, LinuxPriorityPolicy::create);
        // The paper's additional policies (4.4).
        m.put(DeadlockAwarePolicy.NAME, DeadlockAwarePolicy::create);
        m.put(AdaptivePolicy.NAME, AdaptivePolicy::create);
        // Q-JVM's proportional share (Move-To-Rear List Scheduling).
        m.put(MtrLsPolicy.NAME, MtrLsPolicy::create);
        return m;
    }
}
