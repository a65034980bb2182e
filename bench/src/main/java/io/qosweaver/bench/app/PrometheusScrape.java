package io.qosweaver.bench.app;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A tolerant reader of the Prometheus text exposition format (0.0.4): comments and malformed
 * lines are skipped, labels are parsed with escapes, timestamps ignored. Enough to read the
 * agent's {@code qosweaver_*} metrics; a metric that is missing reads as null.
 */
public final class PrometheusScrape {

    /** One sample: name, labels (sorted), value. */
    public record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;

    private PrometheusScrape(List<Sample> samples) {
        this.samples = samples;
    }

    public List<Sample> samples() {
        return samples;
    }

    public static PrometheusScrape parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            try {
                Sample s = parseLine(line);
                if (s != null) {
                    out.add(s);
                }
            } catch (RuntimeException ignored) {
                // tolerant by design: one odd line must not lose the others
            }
        }
        return new PrometheusScrape(out);
    }

    private static Sample parseLine(String line) {
        int i = 0;
        while (i < line.length() && isNameChar(line.charAt(i))) {
            i++;
        }
        if (i == 0) {
            return null;
        }
        String name = line.substring(0, i);
        Map<String, String> labels = new TreeMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i++;
            while (true) {
                while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == ',')) {
                    i++;
                }
                if (line.charAt(i) == '}') {
                    i++;
                    break;
                }
                int eq = line.indexOf('=', i);
                String key = line.substring(i, eq).strip();
                i = eq + 1;
                if (line.charAt(i) != '"') {
                    return null;
                }
                i++;
                StringBuilder v = new StringBuilder();
                while (line.charAt(i) != '"') {
                    char c = line.charAt(i);
                    if (c == '\\') {
                        char e = line.charAt(++i);
                        v.append(e == 'n' ? '\n' : e);
                    } else {
                        v.append(c);
                    }
                    i++;
                }
                i++;
                labels.put(key, v.toString());
            }
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        return new Sample(name, labels, parseValue(rest[0]));
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == ':';
    }

    private static double parseValue(String v) {
        switch (v) {
            case "+Inf": return Double.POSITIVE_INFINITY;
            case "-Inf": return Double.NEGATIVE_INFINITY;
            case "NaN": return Double.NaN;
            default: return Double.parseDouble(v);
        }
    }

    /** The value of the first sample with this name whose labels include {@code labelPairs} (k, v, k, v...). */
    public Double value(String name, String... labelPairs) {
        outer:
        for (Sample s : samples) {
            if (!s.name().equals(name)) {
                continue;
            }
            for (int k = 0; k + 1 < labelPairs.length; k += 2) {
                if (!labelPairs[k + 1].equals(s.labels().get(labelPairs[k]))) {
                    continue outer;
                }
            }
            return Double.isNaN(s.value()) ? null : s.value();
        }
        return null;
    }

    /** Sum of every sample with this name (e.g. over all task classes); null when none. */
    public Double sum(String name) {
        Double total = null;
        for (Sample s : samples) {
            if (s.name().equals(name) && !Double.isNaN(s.value())) {
                total = (total == null ? 0 : total) + s.value();
            }
        }
        return total;
    }
}
