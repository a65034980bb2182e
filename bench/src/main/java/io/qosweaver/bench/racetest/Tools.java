package io.qosweaver.bench.racetest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** The OS tools the baselines use: {@code taskset} (one CPU) and {@code renice} (setpriority on a thread id). */
final class Tools {
    private Tools() {}

    static boolean hasTaskset() {
        return runs("taskset", "-p", Long.toString(ProcessHandle.current().pid()));
    }

    static boolean hasRenice() {
        return runs("renice", "--version") || runs("renice", "-n", "0", "-p", Long.toString(ProcessHandle.current().pid()));
    }

    /**
     * {@code renice -n NICE -p TID}: setpriority(PRIO_PROCESS, tid), which on Linux addresses one
     * thread. Returns "ok" or the tool's complaint (raising a priority needs privileges; lowering
     * one does not).
     */
    static String renice(int tid, int nice) {
        try {
            Process p = new ProcessBuilder("renice", "-n", Integer.toString(nice), "-p", Integer.toString(tid))
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "renice timed out";
            }
            return p.exitValue() == 0 ? "ok" : "renice failed: " + out;
        } catch (IOException e) {
            return "renice unavailable: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static boolean runs(String... cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
