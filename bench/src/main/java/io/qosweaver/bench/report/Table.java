package io.qosweaver.bench.report;

import io.qosweaver.bench.app.RunValidity;
import io.qosweaver.bench.app.ScenarioResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/** The side-by-side table, as rows of cells (for the terminal and for the HTML report). */
public final class Table {
    private Table() {
    }

    private record Row(String label, Function<ScenarioResult, Object> value) {
    }

    private static final List<Row> ROWS = List.of(
            new Row("collections (count)", ScenarioResult::collectionCount),
            new Row("deadline miss ratio", ScenarioResult::deadlineMissRatio),
            new Row("collection time mean (ms)", ScenarioResult::collectionTimeMeanMs),
            new Row("collection time max (ms)", ScenarioResult::collectionTimeMaxMs),
            new Row("collection time stddev (ms)", ScenarioResult::collectionTimeStddevMs),
            new Row("chart throughput (/s)", ScenarioResult::chartThroughputPerS),
            new Row("chart p50 (ms)", ScenarioResult::chartP50Ms),
            new Row("chart p99 (ms)", ScenarioResult::chartP99Ms),
            new Row("chart errors", ScenarioResult::chartErrors),
            new Row("levels p50 (ms)", ScenarioResult::levelsP50Ms),
            new Row("levels p99 (ms)", ScenarioResult::levelsP99Ms),
            new Row("time to suspend p50 (ms)", ScenarioResult::suspensionTimeP50Ms),
            new Row("time to suspend p99 (ms)", ScenarioResult::suspensionTimeP99Ms));

    /** One row per metric; a run whose requests failed ({@link RunValidity}) shows INVALID, not its numbers. */
    public static List<String[]> rows(Map<String, ScenarioResult> versions) {
        List<String[]> out = new ArrayList<>();
        for (Row r : ROWS) {
            String[] cells = new String[versions.size() + 1];
            cells[0] = r.label();
            int i = 1;
            for (ScenarioResult s : versions.values()) {
                cells[i++] = s == null ? "-" : RunValidity.of(s) != null ? "INVALID" : cell(r.value().apply(s));
            }
            out.add(cells);
        }
        return out;
    }

    public static String cell(Object v) {
        if (v == null) {
            return "-";
        }
        if (v instanceof Double d) {
            double a = Math.abs(d);
            return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 1 ? "%.2f" : "%.3f", d);
        }
        return v.toString();
    }

    /** One line per invalid run: {@code LABEL: why}. */
    public static List<String> invalid(Map<String, ScenarioResult> versions) {
        List<String> out = new ArrayList<>();
        versions.forEach((label, s) -> {
            String why = RunValidity.of(s);
            if (why != null) {
                out.add(label + ": figures INVALID, " + why);
            }
        });
        return out;
    }

    /** A plain, aligned text table: a header row and one row per metric. */
    public static String text(Map<String, ScenarioResult> versions) {
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[versions.size() + 1];
        head[0] = "metric";
        int k = 1;
        for (String v : versions.keySet()) {
            head[k++] = v;
        }
        rows.add(head);
        rows.addAll(rows(versions));
        int[] w = new int[head.length];
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                String f = i == 0 ? "%-" + w[i] + "s" : "  %" + w[i] + "s";
                sb.append(String.format(f, r[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
