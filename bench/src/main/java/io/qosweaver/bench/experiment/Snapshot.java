package io.qosweaver.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Private copies of the jars and the policy an experiment runs, in a temporary directory.
 * Others rebuild {@code target/} while an experiment runs (a long demo, a shared machine); a JVM
 * whose agent jar is replaced under it fails with {@code NoClassDefFoundError}s, and the two
 * versions of a demo must run the same bits.
 */
record Snapshot(Path dir, Path riverMonitorJar, Path agentJar, Path policy) implements AutoCloseable {

    static Snapshot of(Layout layout, boolean withAgent) throws IOException {
        Path dir = Files.createTempDirectory("qosweaver-run-");
        Path app = copy(layout.riverMonitorJar(), dir);
        Path agent = withAgent ? copy(layout.agentJar(), dir) : null;
        Path policy = withAgent ? copy(layout.riverMonitorPolicy(), dir) : null;
        return new Snapshot(dir, app, agent, policy);
    }

    private static Path copy(Path from, Path dir) throws IOException {
        return Files.copy(from, dir.resolve(from.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
    }

    @Override
    public void close() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
