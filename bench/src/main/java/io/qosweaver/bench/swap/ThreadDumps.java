package io.qosweaver.bench.swap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The JVM's own view of parked threads ({@code jcmd PID Thread.print}), beside the scheduler's
 * counter: a thread the scheduler forgot (an old scheduler replaced by a swap, or one uninstalled
 * by an unweave) is invisible to the new scheduler's counter, but not to the thread dump.
 */
final class ThreadDumps {
    private ThreadDumps() {
    }

    /** {@code jcmd PID Thread.print} written to {@code file}; null when it cannot be had. */
    static String take(long pid, Path file) throws InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        if (!Files.isExecutable(jcmd)) {
            return null;
        }
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
                    .redirectErrorStream(true).redirectOutput(file.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * The names of threads parked or waiting inside QoSWeaver code while running application or
     * server code: a waiting thread with a frame of {@code io.qosweaver} above a frame that is not
     * the JDK's ({@code java.}, {@code jdk.}, {@code sun.}) nor QoSWeaver's. The agent's own threads
     * (control, metrics) wait in QoSWeaver code too, but run nothing else.
     */
    static List<String> parkedInQosweaver(String dump) {
        List<String> out = new ArrayList<>();
        for (String block : dump.split("\\R\\s*\\R")) {
            String b = block.strip();
            if (!b.startsWith("\"")) {
                continue;
            }
            boolean waiting = b.contains("java.lang.Thread.State: WAITING")
                    || b.contains("java.lang.Thread.State: TIMED_WAITING");
            boolean inQos = false;
            boolean appBelow = false;
            for (String line : b.split("\\R")) {
                String l = line.strip();
                if (!l.startsWith("at ")) {
                    continue;
                }
                String frame = l.substring(3);
                if (frame.startsWith("io.qosweaver.")) {
                    inQos = true;
                } else if (inQos && !frame.startsWith("java.") && !frame.startsWith("jdk.")
                        && !frame.startsWith("sun.")) {
                    appBelow = true;
                    break;
                }
            }
            if (waiting && appBelow) {
                out.add(b.substring(1, b.indexOf('"', 1)));
            }
        }
        return out;
    }
}
