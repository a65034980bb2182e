package io.qosweaver.cli.ctl;

import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code qosweaver watch PID 'POINTCUT'}: weaves a tracing aspect into a JVM running the agent,
 * prints every call it selects (thread, duration, method, arguments, outcome), at most {@code
 * --max-rate} lines a second, for {@code --duration}, then unweaves it. Interrupted (Ctrl-C), it
 * unweaves first; if this command dies, the agent unweaves the watch shortly after its end.
 */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = "Trace the calls an execution pointcut selects in a running JVM, then unweave.",
        footer = {"%nExample: qosweaver watch 4242 'execution(* org.rivermonitor.collector.Collector.*(..))' --duration 10s",
                "%nArguments are printed by value only when they are strings, numbers, booleans, characters or enums;"
                        + " other objects by class and identity hash (the application's toString never runs)."})
public final class WatchCommand implements Callable<Integer> {
    static final long POLL_MS = 250;

    @Parameters(index = "0", paramLabel = "PID", description = "the JVM's process id")
    long pid;

    @Parameters(index = "1", paramLabel = "POINTCUT", description = "an execution pointcut, quoted")
    String pointcut;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "30s",
            description = "how long to watch: 500ms, 30s, 5m (default ${DEFAULT-VALUE}; at most 1h)")
    String duration;

    @Option(names = "--max-rate", paramLabel = "N", defaultValue = "100",
            description = "at most N lines a second; the rest are counted (default ${DEFAULT-VALUE})")
    int maxRate;

    @Override
    public Integer call() throws InterruptedException {
        long ms;
        try {
            ms = millis(duration);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver watch: " + e.getMessage());
            return 2;
        }
        if (maxRate < 1) {
            System.err.println("qosweaver watch: --max-rate must be at least 1");
            return 2;
        }
        if (pointcut.contains("\n")) {
            System.err.println("qosweaver watch: the pointcut must be one line");
            return 2;
        }
        PrintStream out = System.out;
        try {
            ControlClient.Reply started = ControlClient.send(pid, "watch start " + ms + " " + maxRate + " " + pointcut);
            if (!started.ok()) {
                System.err.print("qosweaver watch: " + started.text());
                return 1;
            }
            System.err.print("qosweaver watch: " + started.text());
        } catch (IOException e) {
            System.err.println("qosweaver watch: " + e.getMessage());
            return 1;
        }
        Thread stopper = new Thread(() -> stop(out), "qosweaver-watch-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            long end = System.nanoTime() + ms * 1_000_000;
            while (System.nanoTime() < end) {
                Thread.sleep(Math.min(POLL_MS, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
                ControlClient.Reply r = ControlClient.send(pid, "watch poll");
                if (!r.ok()) {
                    System.err.print("qosweaver watch: " + r.text());
                    return 1;
                }
                printCalls(out, r.text());
            }
        } catch (IOException e) {
            System.err.println("qosweaver watch: " + e.getMessage());
            return 1;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
        return stop(out) ? 0 : 1;
    }

    private boolean stop(PrintStream out) {
        try {
            ControlClient.Reply r = ControlClient.send(pid, "watch stop");
            if (!r.ok()) {
                System.err.print("qosweaver watch: " + r.text());
                return false;
            }
            String text = r.text();
            printCalls(out, text);
            for (String line : text.split("\n")) {
                if (line.startsWith("#") || line.startsWith("stopped")) {
                    System.err.println("qosweaver watch: " + line.replaceFirst("^# ", ""));
                }
            }
            return true;
        } catch (IOException e) {
            System.err.println("qosweaver watch: " + e.getMessage() + " (the agent unweaves the watch by itself soon)");
            return false;
        }
    }

    /** The call lines of an answer (its counter lines go to stderr at the end). */
    private static void printCalls(PrintStream out, String text) {
        for (String line : text.split("\n")) {
            if (!line.isEmpty() && !line.startsWith("#") && !line.startsWith("stopped")) {
                out.println(line);
            }
        }
        out.flush();
    }

    /** {@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h}. */
    static long millis(String d) {
        var m = java.util.regex.Pattern.compile("([0-9]{1,9})(ms|s|m|h)").matcher(d.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("--duration " + d + ": write it as 500ms, 30s, 5m or 1h");
        }
        long n = Long.parseLong(m.group(1));
        Duration v = switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
        if (v.isZero() || v.compareTo(Duration.ofHours(1)) > 0) {
            throw new IllegalArgumentException("--duration " + d + ": from 1 ms to 1 h");
        }
        return v.toMillis();
    }
}
