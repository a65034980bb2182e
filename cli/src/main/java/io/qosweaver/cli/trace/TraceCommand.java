package io.qosweaver.cli.trace;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.qosweaver.cli.launch.JavaCommand;
import io.qosweaver.trace.TraceOptions;
import io.qosweaver.trace.Tracer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qosweaver trace [--duration 30s] [--out run.pftrace] -- java ...}: runs the java command
 * with the agent in its tracing mode ({@code trace=OUT,...}) and, with {@code --policy}, scheduled
 * as well; {@code qosweaver trace PID --duration 30s --out run.pftrace} loads the tracer into a
 * running JVM of the same user. Either way the Perfetto file appears, complete, once the tracer
 * stops (its duration ran out, or the JVM exited).
 */
@Command(name = "trace", mixinStandardHelpOptions = true,
        description = "Trace a java command (or a running JVM) on one timeline: OS thread states, JVM events, the"
                + " scheduler's decisions and requests, per thread, into a Perfetto trace (open it in ui.perfetto.dev).",
        footer = {"%nExamples:",
                "  qosweaver trace --duration 30s --out run.pftrace -- java -jar examples/river-monitor/target/river-monitor.jar",
                "  qosweaver trace --policy examples/policies/river-monitor.yaml --out run.pftrace -- java -jar app.jar",
                "  qosweaver trace 4242 --duration 30s --out run.pftrace"})
public final class TraceCommand implements Callable<Integer> {
    @Option(names = "--out", paramLabel = "FILE", defaultValue = "run.pftrace",
            description = "the Perfetto trace to write (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--duration", paramLabel = "DURATION",
            description = "how long to trace (30s, 500ms, 2m); default: until the JVM exits (required with a PID)")
    String duration;

    @Option(names = "--levels", paramLabel = "LEVELS", description = "os+jvm+scheduler+app+server+user (default: all)")
    String levels;

    @Option(names = "--os-hz", paramLabel = "N", description = "the OS level's sampling rate (default: 100)")
    Integer osHz;

    @Option(names = "--os-source", paramLabel = "SOURCE", description = "where the OS level's thread states come from: "
            + "tracefs (the kernel's sched_switch/sched_wakeup: exact; needs root and tracefs mounted), proc (/proc sampled "
            + "at --os-hz) or auto (default: tracefs when it can be used, else proc)")
    String osSource;

    @Option(names = "--max-size", paramLabel = "SIZE", description = "cap on the trace file (default: 256m)")
    String maxSize;

    @Option(names = "--no-html",
            description = "do not write the statistics view (OUT.html beside the trace: time per thread in each state)")
    boolean noHtml;

    @Option(names = "--policy", paramLabel = "FILE",
            description = "schedule the command with this policy too (its decisions are the scheduler level)")
    Path policy;

    @Mixin
    JavaCommand java = new JavaCommand();

    static final String USAGE = "qosweaver trace [--duration D] [--out FILE] -- java ...  or  qosweaver trace PID --duration D";

    @Override
    public Integer call() throws Exception {
        TraceOptions options;
        try {
            options = options(out, duration, levels, osHz, maxSize, !noHtml, osSource);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver trace: " + e.getMessage());
            return 2;
        }
        if (java.command.size() == 1 && java.command.get(0).matches("\\d+")) {
            return attach(Long.parseLong(java.command.get(0)), options);
        }
        List<String> cmd;
        try {
            cmd = rewrite(java.command, java.agentJar(), options, policy);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver trace: " + e.getMessage());
            return 2;
        }
        Files.deleteIfExists(options.out());
        int rc = JavaCommand.run(cmd);
        report(options.out());
        return rc;
    }

    /**
     * The options as the agent will read them; a bad value is refused here, before a JVM starts.
     *
     * @throws IllegalArgumentException with the agent's message
     */
    static TraceOptions options(Path out, String duration, String levels, Integer osHz, String maxSize, boolean html) {
        return options(out, duration, levels, osHz, maxSize, html, null);
    }

    /** The same, with {@code --os-source} ({@code auto}, {@code tracefs} or {@code proc}; null: auto). */
    static TraceOptions options(Path out, String duration, String levels, Integer osHz, String maxSize, boolean html,
            String osSource) {
        Map<String, String> kv = new LinkedHashMap<>();
        if (osSource != null) {
            kv.put("traceOs", osSource);
        }
        if (!html) {
            kv.put("traceHtml", "false");
        }
        kv.put("trace", out.toAbsolutePath().normalize().toString());
        if (duration != null) {
            kv.put("traceDuration", duration);
        }
        if (levels != null) {
            kv.put("traceLevels", levels);
        }
        if (osHz != null) {
            kv.put("traceOsHz", osHz.toString());
        }
        if (maxSize != null) {
            kv.put("traceMaxSize", maxSize);
        }
        TraceOptions o = TraceOptions.parse(kv);
        Path dir = o.out().toAbsolutePath().getParent();
        if (dir != null && Files.exists(dir) && !Files.isWritable(dir)) {
            throw new IllegalArgumentException("cannot write the trace into " + dir + " (not writable)");
        }
        return o;
    }

    /** The java command with {@code -javaagent:AGENT=trace=...[,policy=FILE]} after the executable. */
    static List<String> rewrite(List<String> command, Path agentJar, TraceOptions o, Path policy) {
        String args = o.toAgentArgs();
        if (policy != null) {
            if (!Files.isRegularFile(policy)) {
                throw new IllegalArgumentException("policy file not found: " + policy.toAbsolutePath());
            }
            args += ",policy=" + policy.toAbsolutePath();
        }
        return JavaCommand.withAgent(command, agentJar, args, USAGE);
    }

    private int attach(long pid, TraceOptions o) throws InterruptedException, IOException {
        if (o.durationNanos() == 0) {
            System.err.println("qosweaver trace: tracing a running JVM needs --duration (e.g. --duration 30s)");
            return 2;
        }
        if (policy != null) {
            System.err.println("qosweaver trace: --policy is for a command; attach one with qosweaver attach " + pid);
            return 2;
        }
        Path jar = java.agentJar();
        if (!Files.isRegularFile(jar)) {
            System.err.println("qosweaver trace: the agent jar " + jar + " is missing (build it: ./mvnw -pl agent -am"
                    + " package, or give --agent JAR)");
            return 2;
        }
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            System.err.println("qosweaver trace: no process with pid " + pid);
            return 1;
        }
        Files.deleteIfExists(o.out());
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            try {
                vm.loadAgent(jar.toAbsolutePath().toString(), o.toAgentArgs());
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException e) {
            System.err.println("qosweaver trace: cannot attach to process " + pid + ": " + e.getMessage()
                    + " (is it a JVM of this user, started without -XX:+DisableAttachMechanism?)");
            return 1;
        } catch (AgentInitializationException e) {
            System.err.println("qosweaver trace: the tracer did not start in process " + pid
                    + " (its reason is in that JVM's output)");
            return 1;
        } catch (AgentLoadException | IOException e) {
            System.err.println("qosweaver trace: loading the tracer into process " + pid + " failed: " + e.getMessage());
            return 1;
        }
        System.err.println("qosweaver trace: tracing process " + pid + " for " + Duration.ofNanos(o.durationNanos()));
        long deadline = System.nanoTime() + o.durationNanos() + 30_000_000_000L;
        ProcessHandle target = ProcessHandle.of(pid).orElse(null);
        while (!Files.exists(o.out())) {
            if (System.nanoTime() > deadline || target == null || !target.isAlive()) {
                if (!Files.exists(o.out())) {
                    System.err.println("qosweaver trace: no complete trace at " + o.out() + (Files.exists(Tracer.partial(o.out()))
                            ? " (the partial one is " + Tracer.partial(o.out()) + ")" : "") + "; see process " + pid
                            + "'s output");
                    return 1;
                }
                break;
            }
            Thread.sleep(200);
        }
        report(o.out());
        return 0;
    }

    private static void report(Path out) throws IOException {
        if (Files.exists(out)) {
            System.err.println("qosweaver trace: " + out.toAbsolutePath() + " (" + Files.size(out)
                    + " bytes): open it in ui.perfetto.dev");
            Path html = io.qosweaver.trace.stats.StatsPage.besideTrace(out);
            if (Files.exists(html)) {
                System.err.println("qosweaver trace: statistics view " + html.toAbsolutePath() + " (open it in a browser)");
            }
        } else {
            System.err.println("qosweaver trace: the JVM wrote no complete trace" + (Files.exists(Tracer.partial(out))
                    ? " (a partial one: " + Tracer.partial(out) + ")" : ""));
        }
    }

}
