package io.qosweaver.cli.profile;

import io.qosweaver.cli.launch.JavaCommand;

import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qosweaver profile --include PKG,... --out FILE -- java ...}: the java command with the
 * agent in profiling mode (every call made from code of the included packages is recorded), then
 * a summary of the profile read back. The paper's guideline (section 3.3): send the most common
 * request, one at a time, while profiling.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Record the call join points of a java command into a profile for `qosweaver pointcuts`.",
        footer = {"%nRequest spans: where the application runs in a servlet container, Jetty (9.4 to 12), Tomcat or"
                + " Undertow, the agent also marks, per thread, when it begins and ends handling a request; the slot"
                + " profile records these spans, and `qosweaver pointcuts` then counts only the time inside them: a pooled"
                + " thread's time between requests, and threads that handle no request (a finalizer, a timer), are left"
                + " out and reported (pointcuts/README.md, \"Request spans\"). Other servers: no spans, every thread's"
                + " whole time counts.",
                "%nExample: qosweaver profile --include org.jfree --out chart.qwp --start-paused --metrics-port 9404 -- "
                + "java -jar examples/river-monitor/target/river-monitor.jar",
                "then: curl -X POST http://127.0.0.1:9404/profile/start; one request; curl -X POST .../profile/stop"})
public final class ProfileCommand implements Callable<Integer> {

    @Option(names = "--include", required = true, split = ",", paramLabel = "PKG",
            description = "packages whose code is profiled (the callers; callees may be anything, the JDK too)."
                    + " JDK packages only when named, e.g. sun.java2d.marlin,com.sun.imageio.plugins.png; never the"
                    + " JDK's core the profiler runs on (java.lang, java.util, java.io, java.nio, jdk.internal, sun.nio,"
                    + " ...: see agent/README.md)")
    List<String> include = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the binary profile to write")
    Path out;

    @Option(names = "--start-paused", description = "record nothing until started over JMX or POST /profile/start")
    boolean paused;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "loopback port for /metrics and POST /profile/start|stop (0 = any free port)")
    Integer metricsPort;

    @Option(names = "--max-bytes", paramLabel = "SIZE", description = "stop recording past this size (e.g. 256m)")
    String maxBytes;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "slots (the default: per thread and slot, each call pair's count and first and last time;"
                    + " size grows with the profiled time, not the calls) or joinpoints (every call: about 7 bytes each)")
    String format;

    @Option(names = "--slot", paramLabel = "DURATION",
            description = "the base slot of slot summaries (default 1ms); `pointcuts --interval` must be a multiple of it")
    String slot;

    @Option(names = "--probe-cost", paramLabel = "auto|none|DURATION",
            description = "the profiler's own cost per call, taken out of the recorded times so that they are the"
                    + " application's time: auto (the default: measured when recording starts), none, or e.g. 40ns")
    String probeCost;

    @Option(names = "--request", paramLabel = "CMD",
            description = "a shell command that sends one request and exits 0 when it succeeded (e.g. curl -sf URL)."
                    + " Then the command is run twice: without the agent, to time the requests, and profiled; the"
                    + " profile has the probe's whole cost taken out, measured against the first run (README: profiling)")
    String request;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "3",
            description = "with --request: requests per measurement and per recording (default ${DEFAULT-VALUE})")
    int requests;

    @Option(names = "--warm-up", paramLabel = "N", defaultValue = "10",
            description = "with --request: requests sent to each run before anything is measured (default ${DEFAULT-VALUE})")
    int warmUp;

    @Option(names = "--ready-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "with --request: how long the request may fail while the application starts (default ${DEFAULT-VALUE})")
    int readyTimeout;

    @Mixin
    JavaCommand java = new JavaCommand();

    @Override
    public Integer call() throws Exception {
        List<String> cmd;
        int controlPort = -1;
        try {
            List<String> options = options();
            if (request != null) {
                checkRequestMode();
                controlPort = metricsPort != null && metricsPort > 0 ? metricsPort : RequestProfiler.freePort();
                options.removeIf(o -> o.startsWith("start=") || o.startsWith("metricsPort="));
                options.add("start=paused");
                options.add("metricsPort=" + controlPort);
            }
            cmd = rewrite(java.command, java.agentJar(), out, include, options);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver profile: " + e.getMessage());
            return 2;
        }
        for (Path stale : written(out)) { // the files of an earlier run under this name
            Files.deleteIfExists(stale);
        }
        if (request != null) {
            try {
                new RequestProfiler(java.command, cmd, out, request, requests, warmUp, Duration.ofSeconds(readyTimeout),
                        controlPort, System.err).run();
            } catch (IllegalStateException | IOException e) {
                System.err.println("qosweaver profile: " + e.getMessage());
                return 1;
            }
            System.err.println("qosweaver profile: " + summary(out));
            System.err.println(nextStep(List.of(out)));
            return 0;
        }
        int exit = JavaCommand.run(cmd); // the child's shutdown hook closes the profile
        List<Path> files = written(out);
        if (files.isEmpty()) {
            System.err.println("qosweaver profile: no profile was written to " + out + " (the command exited with "
                    + exit + " before the agent started recording)");
            return exit == 0 ? 1 : exit;
        }
        try {
            for (Path f : files) {
                System.err.println("qosweaver profile: " + summary(f));
            }
            System.err.println(nextStep(files));
        } catch (IOException e) {
            System.err.println("qosweaver profile: a profile cannot be read: " + e.getMessage());
            return 1;
        }
        return exit;
    }

    /**
     * The profiles the agent wrote for {@code out}: each start of a recording opens a new file,
     * {@code OUT.qwp}, then {@code OUT-2.qwp}, {@code OUT-3.qwp}, ... (agent/README.md); those that
     * exist, in that order.
     */
    static List<Path> written(Path out) throws IOException {
        List<Path> files = new ArrayList<>();
        if (Files.isRegularFile(out)) {
            files.add(out);
        }
        Path dir = out.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return files;
        }
        String name = out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        Pattern numbered = Pattern.compile(Pattern.quote(stem) + "-([1-9][0-9]{0,8})" + Pattern.quote(ext));
        TreeMap<Integer, Path> byNumber = new TreeMap<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(f -> {
                Matcher m = numbered.matcher(f.getFileName().toString());
                if (m.matches() && Integer.parseInt(m.group(1)) >= 2 && Files.isRegularFile(f)) {
                    byNumber.put(Integer.parseInt(m.group(1)), out.resolveSibling(f.getFileName()));
                }
            });
        }
        files.addAll(byNumber.values());
        return files;
    }

    /** The documented next step (README: "Choosing control points from a profile") for these files. */
    static String nextStep(List<Path> files) {
        return "next: qosweaver pointcuts " + String.join(" ", files.stream().map(Path::toString).toList())
                + " --interval 25ms --max-occurrence 1 --cover-all --into my-policy.yaml";
    }

    /** The options that --request cannot be combined with, and its counts. */
    void checkRequestMode() {
        if (request.isBlank()) {
            throw new IllegalArgumentException("--request needs a shell command that sends one request, e.g. --request"
                    + " 'curl -sf http://127.0.0.1:8080/report'");
        }
        if ("joinpoints".equals(format) || "none".equals(probeCost)) {
            throw new IllegalArgumentException("--request measures the probe's cost to take it out of slot summaries;"
                    + " it cannot be combined with " + ("none".equals(probeCost) ? "--probe-cost none" : "--format joinpoints"));
        }
        if (requests < 1 || warmUp < 0 || readyTimeout < 1) {
            throw new IllegalArgumentException("--requests must be at least 1, --warm-up at least 0 and --ready-timeout"
                    + " at least 1 (seconds)");
        }
    }

    List<String> options() {
        List<String> o = new ArrayList<>();
        if (paused) {
            o.add("start=paused");
        }
        if (metricsPort != null) {
            o.add("metricsPort=" + metricsPort);
        }
        if (maxBytes != null) {
            o.add("maxBytes=" + maxBytes);
        }
        if (format != null) {
            o.add("format=" + format);
        }
        if (slot != null) {
            o.add("slot=" + slot);
        }
        if (probeCost != null) {
            o.add("probeCost=" + probeCost);
        }
        return o;
    }

    /** The command with {@code -javaagent:AGENT=profile=OUT,include=P1+P2[,opts]} after java. */
    static List<String> rewrite(List<String> command, Path agentJar, Path out, List<String> include, List<String> options) {
        if (include.isEmpty() || include.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("name the packages to profile, e.g. --include org.jfree,com.example");
        }
        StringBuilder args = new StringBuilder("profile=").append(out.toAbsolutePath())
                .append(",include=").append(String.join("+", include));
        options.forEach(o -> args.append(',').append(o));
        return JavaCommand.withAgent(command, agentJar, args.toString(),
                "qosweaver profile --include PKG --out FILE -- java ...");
    }

    static String summary(Path profile) throws IOException {
        boolean slots = BinaryProfileReader.version(profile) == 2;
        BinaryProfileReader.Summary s = BinaryProfileReader.summary(profile);
        long bytes = Files.size(profile);
        String limit = s.meta().get("limit");
        String cost = s.meta().get(BinaryProfileFormat.PROBE_COST_NANOS);
        return profile + ": " + s.joinPoints() + " join points, " + s.threads() + " threads, " + s.signatures()
                + " signatures, " + bytes + " bytes"
                + (slots ? " (slot summaries of " + s.slotNanos() / 1000 + " us, " + cost + " ns of probe taken out per"
                        + " join point)" : "")
                + (slots ? spans(s) : "")
                + (limit == null ? "" : "; PARTIAL, a limit stopped the recording: " + limit);
    }

    /** What the profile's request spans say, for the summary. */
    static String spans(BinaryProfileReader.Summary s) {
        String spans = s.meta().get(BinaryProfileFormat.REQUEST_SPANS);
        return spans == null ? "; no request spans (no supported server's request entry ran): every thread's whole time"
                + " counts" : "; request spans: " + spans;
    }
}
