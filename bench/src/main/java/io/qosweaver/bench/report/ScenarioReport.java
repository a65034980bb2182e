package io.qosweaver.bench.report;

import io.qosweaver.bench.app.ScenarioResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;

/**
 * The report of runs of the river monitor side by side (the flash crowd's idle and overloaded
 * windows, the demo's versions): one {@link ReportDocument}, so {@code index.html} and
 * {@code RESULTS.md} say the same, with the collection, latency, throughput and running-threads
 * plots beside them.
 */
public final class ScenarioReport {
    private ScenarioReport() {}

    /**
     * @param summary paragraphs before the results
     * @param failures lines that make the figures below unreliable (shown first, as warnings)
     * @param columns label to result, in column order
     */
    public static void write(Path dir, String title, List<String> summary, List<String> failures, String command,
            Map<String, ScenarioResult> columns, Map<String, Object> parameters, Map<String, Object> machine)
            throws IOException {
        ReportDocument doc = new ReportDocument(title);
        List<String> warnings = new ArrayList<>(failures);
        warnings.addAll(Table.invalid(columns));
        doc.warnings(warnings);
        summary.forEach(doc::paragraph);
        doc.command(command);
        doc.heading("Results");
        List<String[]> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("metric"));
        header.addAll(columns.keySet());
        rows.add(header.toArray(new String[0]));
        rows.addAll(Table.rows(columns));
        doc.table(rows);
        doc.paragraph("Collections are counted when they start inside the measured window; times in ms. Raw"
                + " numbers, every collection and the per-second load series: results.json.");
        doc.image("collections.png", "Collection time per period (the period is the deadline)",
                ScenarioCharts.collectionChart(columns));
        doc.image("chart-latency.png", "Chart latency", ScenarioCharts.latencyChart(columns));
        doc.image("chart-throughput.png", "Chart throughput", ScenarioCharts.throughputChart(columns));
        JFreeChart gauge = ScenarioCharts.gaugeChart(columns);
        if (gauge != null) {
            doc.image("running-chart-threads.png", "Running low-importance (chart) threads", gauge);
        }
        doc.keyValues("Parameters", parameters);
        doc.keyValues("Machine", machine);
        doc.write(dir);
    }
}
