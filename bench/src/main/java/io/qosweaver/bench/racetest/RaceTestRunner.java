package io.qosweaver.bench.racetest;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link RunSpec}: writes its policy file (managed runs), starts the RaceTest JVM (under
 * {@code taskset} for one-CPU runs), applies the baselines' nice values or cgroup weights to each
 * runner's thread as it announces its kernel id, starts and stops the competing load, and reads
 * the samples.
 */
final class RaceTestRunner {
    /** Beyond the run's own length: start-up, and the JIT on a busy machine. */
    private static final long SLACK_S = 60;

    private RaceTestRunner() {}

    /**
     * What one run printed: per runner its samples (loops/s and CPU ms, each second), CPU time and
     * what became of its nice or weight.
     */
    record Output(boolean scheduled, List<List<Double>> samples, List<List<Double>> cpuSamples, long[] cpuMs,
                  Map<String, String> applied, Double machineBusyCores, Map<String, Long> jvmThreadsCpuMs) {
    }

    static Output run(RunSpec spec, Path agentJar, Path workDir, String classPath, double warmupS,
            Map<String, String> policyParams, Cgroups cgroups) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        if (spec.oneCpu() && Tools.hasTaskset()) {
            cmd.addAll(List.of("taskset", "-c", Integer.toString(Runtime.getRuntime().availableProcessors() - 1)));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-Xshare:auto"));
        cmd.addAll(RaceTestApp.DONT_INLINE);
        if (spec.managed()) {
            Path policy = Files.writeString(workDir.resolve(spec.id() + ".yaml"), policy(spec, policyParams));
            cmd.add("-javaagent:" + agentJar + "=policy=" + policy.toAbsolutePath());
        }
        cmd.addAll(List.of("-cp", classPath, RaceTestApp.class.getName(), spec.managed() ? "api" : "plain",
                Double.toString(spec.durationS()), Double.toString(warmupS)));
        spec.groups().forEach((g, f) -> cmd.add("group:" + g + ":" + f));
        for (RunSpec.Runner r : spec.runners()) {
            cmd.add("runner:" + r.name() + ":" + r.fraction() + ":" + r.priority() + ":" + r.group());
        }
        Path log = workDir.resolve(spec.id() + ".log");
        List<Process> load = spec.competingLoad() ? CompetingLoad.start() : List.of();
        Process p = new ProcessBuilder(cmd).redirectError(log.toFile()).start();
        Map<String, String> applied = new LinkedHashMap<>();
        int n = spec.runners().size();
        List<List<Double>> samples = new ArrayList<>(), cpuSamples = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            samples.add(new ArrayList<>());
            cpuSamples.add(new ArrayList<>());
        }
        long[] cpu = new long[n];
        boolean scheduled = false, done = false;
        Double busy = null;
        Map<String, Long> jvmThreads = new LinkedHashMap<>();
        Thread watchdog = new Thread(() -> {
            try {
                if (!p.waitFor(Math.round(spec.durationS() + warmupS + SLACK_S), TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException ignored) {
                // the run ended first
            }
        }, "racetest-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.split(" ");
                switch (f[0]) {
                    case "TID" -> applied.put(f[1], apply(spec, f[1], Integer.parseInt(f[2]), cgroups));
                    case "SCHEDULED" -> scheduled = Boolean.parseBoolean(f[1]);
                    case "SAMPLE" -> {
                        for (int i = 0; i < n && i + 2 < f.length; i++) {
                            samples.get(i).add(Double.parseDouble(f[i + 2]));
                        }
                    }
                    case "CPUSAMPLE" -> {
                        for (int i = 0; i < n && i + 2 < f.length; i++) {
                            cpuSamples.get(i).add(Double.parseDouble(f[i + 2]));
                        }
                    }
                    case "CPU" -> {
                        for (int i = 0; i < n && i + 1 < f.length; i++) {
                            cpu[i] = Long.parseLong(f[i + 1]);
                        }
                    }
                    case "MACHINE" -> busy = Double.parseDouble(f[1]);
                    case "JVMTHREADS" -> {
                        for (int i = 1; i < f.length; i++) {
                            int colon = f[i].lastIndexOf(':');
                            jvmThreads.put(f[i].substring(0, colon), Long.parseLong(f[i].substring(colon + 1)));
                        }
                    }
                    case "DONE" -> done = true;
                    default -> { } // the agent's own lines go to stderr; anything else is ignored
                }
            }
        } finally {
            CompetingLoad.stop(load);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            watchdog.interrupt();
            cgroups.release(spec.id());
        }
        if (!done) {
            throw new IOException("run " + spec.id() + " did not finish (exit " + (p.isAlive() ? "?" : p.exitValue())
                    + "); its log: " + log + "\n" + tail(log));
        }
        return new Output(scheduled, samples, cpuSamples, cpu, applied, busy, jvmThreads);
    }

    /** The policy of a managed run: mtr-ls with its P and reserved share; the runners ask through the API. */
    static String policy(RunSpec spec, Map<String, String> extra) {
        StringBuilder more = new StringBuilder();
        new TreeMap<>(extra).forEach((k, v) -> more.append("  ").append(k).append(": ").append(v).append('\n'));
        return """
                # bench racetest, run %s: the runners ask their shares through the Java API
                taskClasses:
                  - name: unused
                    entry: execution(void io.qosweaver.bench.racetest.RaceTestApp.never())
                    idle: true
                policy:
                  name: mtr-ls
                  cores: %d
                  reserved: %s
                """.formatted(spec.id(), spec.cores(), spec.reserved()) + more;
    }

    /** The baselines' per-thread settings; "-" when the run has none. */
    private static String apply(RunSpec spec, String name, int tid, Cgroups cgroups) {
        RunSpec.Runner r = spec.runners().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
        if (r == null || tid < 0) {
            return r == null ? "unknown runner" : "no kernel thread id";
        }
        if (r.nice() != null) {
            return Tools.renice(tid, r.nice());
        }
        if (r.weight() != null) {
            return cgroups.place(spec.id(), name, tid, r.weight());
        }
        return "-";
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
