package io.qosweaver.bench.run;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What machine a result was measured on: cores, CPU model, memory, JDK, OS, load at start. */
public final class Machine {
    private Machine() {
    }

    public static Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nproc", Runtime.getRuntime().availableProcessors());
        m.put("cpu_model", firstValue(Path.of("/proc/cpuinfo"), "model name"));
        String mem = firstValue(Path.of("/proc/meminfo"), "MemTotal");
        m.put("memory", mem);
        m.put("jdk", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("load_average_at_start", Math.round(ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage()
                * 100) / 100.0);
        return m;
    }

    private static String firstValue(Path file, String key) {
        try {
            List<String> lines = Files.readAllLines(file);
            for (String l : lines) {
                int colon = l.indexOf(':');
                if (colon > 0 && l.substring(0, colon).strip().equals(key)) {
                    return l.substring(colon + 1).strip();
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: leave it unknown
        }
        return null;
    }
}
