package io.qosweaver.bench.run;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the project's pieces are, from its root: the river monitor's jar, the agent's jar, the
 * river-monitor policy. The root is {@code $QOSWEAVER_HOME} (the launcher script sets it) or
 * the nearest directory above the working directory that holds {@code mvnw} and
 * {@code examples/river-monitor}.
 */
public record Layout(Path root) {

    public static Layout find() {
        String home = System.getenv("QOSWEAVER_HOME");
        if (home != null && !home.isBlank()) {
            return new Layout(Path.of(home).toAbsolutePath().normalize());
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isDirectory(p.resolve("examples/river-monitor"))) {
                return new Layout(p);
            }
        }
        throw new IllegalStateException("cannot find the QoSWeaver project root (a directory with mvnw and "
                + "examples/river-monitor) above " + Path.of("").toAbsolutePath() + "; set QOSWEAVER_HOME");
    }

    public Path riverMonitorJar() {
        return root.resolve("examples/river-monitor/target/river-monitor.jar");
    }

    public Path agentJar() {
        return root.resolve("agent/target/qosweaver-agent.jar");
    }

    /** The agent that installs today's tools (Jetty QoSHandler, concurrency-limits) into the server. */
    public Path peersAgentJar() {
        return root.resolve("peers/target/qosweaver-peers-agent.jar");
    }

    public Path riverMonitorPolicy() {
        return root.resolve("examples/policies/river-monitor.yaml");
    }

    /** When the jars an experiment runs were built: results say which build they measured. */
    public java.util.Map<String, Object> jarDates(boolean withAgent) {
        return jarDates(withAgent, false);
    }

    public java.util.Map<String, Object> jarDates(boolean withAgent, boolean withPeers) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("river_monitor_jar_built", modified(riverMonitorJar()));
        if (withAgent) {
            m.put("agent_jar_built", modified(agentJar()));
        }
        if (withPeers) {
            m.put("peers_agent_jar_built", modified(peersAgentJar()));
        }
        return m;
    }

    private static String modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toInstant().toString();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Builds the river monitor (and the agent when asked) with the project's own Maven wrapper
     * when their jars are missing; the build's output goes to stderr so stdout stays clean for
     * {@code --json}.
     */
    public void ensureBuilt(boolean needAgent) throws IOException, InterruptedException {
        ensureBuilt(needAgent, false);
    }

    /** As {@link #ensureBuilt(boolean)}, also building the peers agent when asked. */
    public void ensureBuilt(boolean needAgent, boolean needPeers) throws IOException, InterruptedException {
        ensureBuilt(true, needAgent, needPeers);
    }

    /** As {@link #ensureBuilt(boolean, boolean)}; experiments on other apps need no river monitor. */
    public void ensureBuilt(boolean needRiverMonitor, boolean needAgent, boolean needPeers)
            throws IOException, InterruptedException {
        List<String> modules = new ArrayList<>();
        if (needRiverMonitor && !Files.isRegularFile(riverMonitorJar())) {
            modules.add("examples/river-monitor");
        }
        if (needAgent && !Files.isRegularFile(agentJar())) {
            modules.add("agent");
        }
        if (needPeers && !Files.isRegularFile(peersAgentJar())) {
            modules.add("peers");
        }
        if (modules.isEmpty()) {
            return;
        }
        System.err.println("[qosweaver] building " + String.join(", ", modules) + " (jars missing)...");
        ProcessBuilder pb = new ProcessBuilder(root.resolve("mvnw").toString(), "-q", "-B", "-DskipTests",
                "-pl", String.join(",", modules), "-am", "package")
                .directory(root.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(System.err);
        }
        int rc = p.waitFor();
        if (rc != 0) {
            throw new IOException("the build failed (exit " + rc + "): ./mvnw -q -B -DskipTests -pl "
                    + String.join(",", modules) + " -am package");
        }
    }
}
