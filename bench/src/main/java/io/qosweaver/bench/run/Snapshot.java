package io.qosweaver.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Private copies of the jars and the policies an experiment runs, in a temporary directory.
 * Others rebuild {@code target/} while an experiment runs (a long demo, a shared machine); a JVM
 * whose agent jar is replaced under it fails with {@code NoClassDefFoundError}s, and the
 * versions of one experiment must run the same bits.
 *
 * @param policy   the copy of the river-monitor policy (the demo's former default), or null
 * @param policies copies of the versions' policies, by their path relative to the project root
 */
public record Snapshot(Path dir, Path riverMonitorJar, Path agentJar, Path peersAgentJar, Path policy,
                Map<String, Path> policies) implements AutoCloseable {

    public static Snapshot of(Layout layout, boolean withAgent) throws IOException {
        Path dir = Files.createTempDirectory("qosweaver-run-");
        Path app = copy(layout.riverMonitorJar(), dir);
        Path agent = withAgent ? copy(layout.agentJar(), dir) : null;
        Path policy = withAgent ? copy(layout.riverMonitorPolicy(), dir) : null;
        return new Snapshot(dir, app, agent, null, policy, Map.of());
    }

    /** The jars, plus a copy of every version's policy (the agent only when some version needs it). */
    public static Snapshot of(Layout layout, Collection<Versions.Version> versions) throws IOException {
        boolean withAgent = versions.stream().anyMatch(Versions.Version::usesAgent);
        boolean withPeers = versions.stream().anyMatch(Versions.Version::usesPeer);
        Path dir = Files.createTempDirectory("qosweaver-run-");
        Path app = copy(layout.riverMonitorJar(), dir);
        Path agent = withAgent ? copy(layout.agentJar(), dir) : null;
        Path peers = withPeers ? copy(layout.peersAgentJar(), dir) : null;
        Map<String, Path> policies = new LinkedHashMap<>();
        Path pdir = Files.createDirectories(dir.resolve("policies"));
        for (Versions.Version v : versions) {
            if (v.usesAgent() && !policies.containsKey(v.policyKey())) {
                Path from = layout.root().resolve(v.policy());
                if (!Files.isRegularFile(from)) {
                    throw new IOException("the policy of version " + v.name() + " is missing: " + from);
                }
                // keep the relative path: two versions' policies may share a file name (river-monitor.yaml)
                Path to = pdir.resolve(v.policy()).normalize();
                if (!to.startsWith(pdir)) {
                    throw new IOException("the policy of version " + v.name() + " is outside the project: " + v.policy());
                }
                Files.createDirectories(to.getParent());
                if (v.policyParams().isEmpty()) {
                    policies.put(v.policyKey(), Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES));
                } else {
                    String text = PolicyParams.applyTo(from, v);
                    String file = to.getFileName().toString();
                    String stem = file.endsWith(".yaml") ? file.substring(0, file.length() - 5) : file;
                    String suffix = PolicyParams.spec(v.policyParams()).replace(':', '.');
                    policies.put(v.policyKey(), Files.writeString(to.resolveSibling(stem + "." + suffix + ".yaml"), text));
                }
            }
        }
        return new Snapshot(dir, app, agent, peers, null, Map.copyOf(policies));
    }

    /** The JVM flags that run {@code v}: its own flags, then the agent with its policy or the peers agent. */
    /** The {@code -javaagent} flag of a version with a policy, with a metrics port of its own. */
    public static String agentFlag(Path agentJar, Path policy) {
        return "-javaagent:" + agentJar + "=policy=" + policy + ",metricsPort=0";
    }

    public List<String> jvmFlags(Versions.Version v) {
        List<String> flags = new java.util.ArrayList<>(v.jvmFlags());
        if (v.usesAgent()) {
            flags.add(agentFlag(agentJar, policies.get(v.policyKey())));
        }
        if (v.usesPeer()) {
            flags.add("-javaagent:" + peersAgentJar + "=" + v.peer());
        }
        return flags;
    }

    private static Path copy(Path from, Path dir) throws IOException {
        return Files.copy(from, dir.resolve(from.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
