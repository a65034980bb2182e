package io.qosweaver.bench.racetest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * cgroup v2 {@code cpu.weight} per runner thread (a threaded sub-group per runner under this
 * process's own cgroup), where the machine allows it: a unified hierarchy, the cpu controller, and
 * a cgroup we may write. {@link #unavailableReason()} says why not otherwise, and the cgroup runs
 * are left out of the plan (the report lists the reason).
 */
final class Cgroups {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private final Path base;
    private final String reason;

    private Cgroups(Path base, String reason) {
        this.base = base;
        this.reason = reason;
    }

    static Cgroups detect() {
        if (!Files.isRegularFile(ROOT.resolve("cgroup.controllers"))) {
            return new Cgroups(null, "no cgroup v2 (unified) hierarchy at " + ROOT + " (cgroup v1 controllers or none)");
        }
        try {
            String own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream().filter(l -> l.startsWith("0::"))
                    .findFirst().map(l -> l.substring(3)).orElse(null);
            if (own == null) {
                return new Cgroups(null, "this process is in no cgroup v2 group (/proc/self/cgroup)");
            }
            Path dir = ROOT.resolve(own.startsWith("/") ? own.substring(1) : own);
            if (!Files.readString(dir.resolve("cgroup.controllers")).contains("cpu")) {
                return new Cgroups(null, "the cpu controller is not enabled for " + dir);
            }
            if (!Files.isWritable(dir)) {
                return new Cgroups(null, dir + " is not writable by this user (delegation needed)");
            }
            return new Cgroups(dir, null);
        } catch (IOException | RuntimeException e) {
            return new Cgroups(null, "cgroup v2 unreadable: " + e.getMessage());
        }
    }

    /** Null when weights can be applied here. */
    String unavailableReason() {
        return reason;
    }

    /** Moves one thread into a threaded group of its own with the weight; "ok" or why not. */
    String place(String run, String runner, int tid, int weight) {
        if (base == null) {
            return "cgroup v2 unavailable: " + reason;
        }
        try {
            Path g = Files.createDirectories(base.resolve("qosweaver-racetest-" + run).resolve(runner));
            Files.writeString(g.getParent().resolve("cgroup.type"), "threaded");
            Files.writeString(g.resolve("cgroup.type"), "threaded");
            Files.writeString(g.getParent().resolve("cgroup.subtree_control"), "+cpu");
            Files.writeString(g.resolve("cpu.weight"), Integer.toString(weight));
            Files.writeString(g.resolve("cgroup.threads"), Integer.toString(tid));
            return "ok";
        } catch (IOException | RuntimeException e) {
            return "cgroup v2 failed: " + e;
        }
    }

    /** Removes a run's groups (their threads have exited with the run's JVM). */
    void release(String run) {
        if (base == null) {
            return;
        }
        Path dir = base.resolve("qosweaver-racetest-" + run);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            List<Path> l = new ArrayList<>(s.filter(Files::isDirectory).toList());
            l.sort(Comparator.reverseOrder());
            for (Path p : l) {
                Files.deleteIfExists(p); // a cgroup directory is removed with rmdir
            }
        } catch (IOException | RuntimeException ignored) {
            // left behind: named after the run, harmless
        }
    }
}
