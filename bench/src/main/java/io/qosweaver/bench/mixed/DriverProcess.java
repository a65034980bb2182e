package io.qosweaver.bench.mixed;

import io.qosweaver.bench.app.Proc;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.report.JsonWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link MixedDriver} in a child JVM, started under {@code nice -n NICE} when {@code nice > 0}: the
 * heavy clients run at a worse nice value than the light client, so that on a 2-core machine the light
 * client's own threads are not the ones that wait (issue 13: "measure with the light client in its own
 * process at a higher priority than the heavy ones").
 */
final class DriverProcess implements AutoCloseable {
    private final Process process;
    private final Path out;
    private final Path log;
    private final String name;

    private DriverProcess(String name, Process process, Path out, Path log) {
        this.name = name;
        this.process = process;
        this.out = out;
        this.log = log;
    }

    /** The command that runs a driver: {@code [nice -n N] java -cp CP MixedDriver args}. */
    static List<String> command(int nice, String javaExecutable, String classPath, List<String> driverArgs) {
        List<String> cmd = new ArrayList<>();
        if (nice != 0) {
            cmd.addAll(List.of("nice", "-n", Integer.toString(nice)));
        }
        cmd.addAll(List.of(javaExecutable, "-Xmx256m", "-XX:+UseSerialGC", "-cp", classPath,
                MixedDriver.class.getName()));
        cmd.addAll(driverArgs);
        return cmd;
    }

    static DriverProcess start(String name, int nice, List<String> driverArgs, Path out, Path log) throws IOException {
        Files.deleteIfExists(out);
        Files.createDirectories(log.toAbsolutePath().getParent());
        List<String> cmd = command(nice, io.qosweaver.bench.app.AppProcess.javaExecutable(),
                System.getProperty("java.class.path"), driverArgs);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new DriverProcess(name, p, out, log);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path log() {
        return log;
    }

    /** The nice value the driver runs at (field 19 of /proc/PID/stat), or null off Linux. */
    Integer nice() {
        return Proc.nice(process.pid());
    }

    /** Waits for the driver to finish and reads its window; a failed driver names its log's last lines. */
    LoadResult await(long timeoutMs) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IOException("the " + name + " driver did not finish in " + timeoutMs / 1000 + " s; log " + log);
        }
        if (process.exitValue() != 0 || !Files.isRegularFile(out)) {
            throw new IOException("the " + name + " driver failed (exit " + process.exitValue() + "): "
                    + lastLines(log, 5));
        }
        return JsonWriter.MAPPER.readValue(out.toFile(), LoadResult.class);
    }

    static String lastLines(Path file, int n) {
        try {
            List<String> lines = Files.readAllLines(file);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
