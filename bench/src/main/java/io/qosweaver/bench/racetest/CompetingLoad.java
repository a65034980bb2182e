package io.qosweaver.bench.racetest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A greedy CPU load outside the JVM (the paper's GenLoad, which archived a directory tree with tar
 * and gzip for a load average of about 1 on its one CPU): one busy shell loop per core.
 */
final class CompetingLoad {
    private CompetingLoad() {}

    static List<Process> start() throws IOException {
        List<Process> l = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            l.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
        }
        return l;
    }

    static void stop(List<Process> load) throws InterruptedException {
        for (Process p : load) {
            p.destroyForcibly();
        }
        for (Process p : load) {
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }
}
