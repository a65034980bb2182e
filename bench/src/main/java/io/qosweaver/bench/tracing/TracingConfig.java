package io.qosweaver.bench.tracing;

import java.util.ArrayList;
import java.util.List;

/**
 * One configuration of the tracer: off, one level alone, or all of them. Every configuration runs
 * the agent with the river monitor's policy (the scheduler and application levels record what the
 * scheduler and the request integrations do), so that the tracer is the only difference.
 *
 * @param levels the agent's {@code traceLevels}, or null: no tracing
 * @param osSource the agent's {@code traceOs} (auto, tracefs or proc)
 */
public record TracingConfig(String name, String levels, String osSource, String description) {
    public static final TracingConfig OFF = new TracingConfig("off", null, "agent and policy, no tracer");
    public static final List<TracingConfig> ALL = List.of(OFF,
            new TracingConfig("os", "os", "proc", "OS level alone: /proc sampled"),
            // refused, with the agent's reason as the configuration's error, where tracefs cannot be used
            new TracingConfig("os-tracefs", "os", "tracefs", "OS level alone: the kernel's scheduler events (tracefs)"),
            new TracingConfig("jvm", "jvm", "JVM level alone: JFR monitor, park, GC events"),
            new TracingConfig("scheduler", "scheduler", "scheduler level alone: the scheduler's JFR events"),
            new TracingConfig("app", "app", "application level alone: requests into per-thread rings"),
            new TracingConfig("server", "server", "server level alone: Jetty's connections, parsing and service"),
            // user events: the river monitor has none, so the level is on in "all" only (it costs nothing unasked)
            new TracingConfig("all", "os+jvm+scheduler+app+server+user", "every level (the OS level's default source)"));

    /** A configuration with the OS level's default source ({@code auto}). */
    public TracingConfig(String name, String levels, String description) {
        this(name, levels, "auto", description);
    }

    public static List<String> names() {
        List<String> n = new ArrayList<>();
        ALL.forEach(c -> n.add(c.name()));
        return n;
    }

    /** @throws IllegalArgumentException naming the known ones */
    public static TracingConfig named(String name) {
        for (TracingConfig c : ALL) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown configuration '" + name + "' (known: " + names() + ")");
    }

    /** The agent arguments after {@code policy=...}: the trace options, or nothing. */
    public String agentArgs(java.nio.file.Path traceFile, int osHz) {
        if (levels == null) {
            return "";
        }
        return ",trace=" + traceFile.toAbsolutePath() + ",traceLevels=" + levels + (osHz != 100 ? ",traceOsHz=" + osHz
                : "") + (osSource.equals("auto") ? "" : ",traceOs=" + osSource);
    }
}
