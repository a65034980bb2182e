package io.qosweaver.bench.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** An app process's threads as the JVM sees them: {@code jcmd PID Thread.print}. */
public final class ThreadDump {
    private ThreadDump() {
    }

    /**
     * {@code jcmd PID Thread.print} written to {@code file} and returned; null when it cannot be
     * had (no jcmd beside this JVM, the process gone, jcmd failing or taking over 30 s).
     */
    public static String take(long pid, Path file) throws InterruptedException {
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
}
