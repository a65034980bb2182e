package io.qosweaver.cli.profile;

import io.qosweaver.platform.ProcThreadStat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The CPU time of a JVM's application threads: {@link ProcThreadStat} (schedstat, nanoseconds) for
 * each thread whose {@code /proc/PID/task/TID/comm} (its name, 15 characters) is the application's. Left out: the JVM's own threads (the JIT
 * compilers, which compile more when probes are woven; the garbage collectors; the VM thread) and
 * the agent's ({@code qosweaver-...}): what is left is what the requests cost the application.
 * Threads that end between two readings take their CPU time with them: fine for servers with
 * thread pools, said in the docs for thread-per-request servers.
 */
final class AppThreadsCpu {
    private AppThreadsCpu() {}

    /** HotSpot's own threads' names as the kernel shows them, and the agent's. */
    static final Pattern NOT_APPLICATION = Pattern.compile(
            "C[12] CompilerThre.*|.*CompilerThread.*|GC Thread#.*|G1 .*|VM Thread|VM Periodic Tas.*|Sweeper thread"
                    + "|Monitor Deflati.*|Service Thread|ParGC Thread#.*|Z[A-Za-z]* ?Worker.*|ZDirector|ZDriver"
                    + "|Shenandoah.*|qosweaver.*");

    /** Per thread id, the CPU time so far of each application thread of {@code pid}. */
    static Map<Integer, Long> read(long pid) throws IOException {
        Path tasks = Path.of("/proc/" + pid + "/task");
        if (!Files.isDirectory(tasks)) {
            throw new IOException("process " + pid + " has no " + tasks + " (it has ended, or this is not Linux)");
        }
        Map<Integer, Long> cpu = new HashMap<>();
        try (Stream<Path> list = Files.list(tasks)) {
            for (Path task : (Iterable<Path>) list::iterator) {
                try {
                    String name = Files.readString(task.resolve("comm"), StandardCharsets.UTF_8).strip();
                    if (NOT_APPLICATION.matcher(name).matches()) {
                        continue;
                    }
                    int tid = Integer.parseInt(task.getFileName().toString());
                    ProcThreadStat stat = ProcThreadStat.read(pid, tid);
                    if (stat == null) {
                        continue; // ended meanwhile
                    }
                    if (stat.cpuNanos() < 0) {
                        throw new IOException("this kernel has no schedstat (" + task + "): the CPU time of threads"
                                + " cannot be measured");
                    }
                    cpu.put(tid, stat.cpuNanos());
                } catch (NoSuchFileException e) {
                    // the thread ended while we listed
                }
            }
        } catch (NoSuchFileException e) {
            throw new IOException("process " + pid + " ended", e);
        }
        return cpu;
    }

    /** The application threads' CPU time from {@code before} to {@code after}; a new thread counts from 0. */
    static long between(Map<Integer, Long> before, Map<Integer, Long> after) {
        long sum = 0;
        for (Map.Entry<Integer, Long> e : after.entrySet()) {
            long was = before.getOrDefault(e.getKey(), 0L);
            sum += e.getValue() >= was ? e.getValue() - was : e.getValue(); // less: a new thread with a reused id
        }
        return sum;
    }
}
