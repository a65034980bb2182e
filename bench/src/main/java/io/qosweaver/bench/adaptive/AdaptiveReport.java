package io.qosweaver.bench.adaptive;

import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.IntervalMarker;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * {@code index.html} and {@code RESULTS.md} of {@code bench adaptive}, from the results alone: the
 * summary, the goals, the paper's figures beside ours, the sweep (Fig. 26), every run, and the
 * plots of Fig. 24, 25 (one per target run), 26 and 27.
 */
public final class AdaptiveReport {
    private AdaptiveReport() {
    }

    public static void write(Path dir, AdaptiveResult r) throws IOException {
        ReportDocument doc = new ReportDocument("Adaptive target throughput: the up-to-date page held at a target "
                + "(paper 5.5)");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        doc.command(r.command());
        List<String[]> goals = new ArrayList<>();
        goals.add(new String[] {"goal", "measured", "met"});
        r.goals().forEach(g -> goals.add(new String[] {g.goal(), g.measured(), g.met() == null ? "-"
                : g.met() ? "yes" : "NO"}));
        doc.heading("Goals (issue 14)").table(goals);
        List<String[]> paper = new ArrayList<>();
        paper.add(new String[] {"figure", "metric", "paper", "here"});
        r.paper().forEach(p -> paper.add(new String[] {p.figure(), p.metric(), p.paper(), p.ours()}));
        doc.heading("The paper's figures beside ours").table(paper);
        List<String[]> sweep = new ArrayList<>();
        sweep.add(new String[] {"target", "paper target", "feasible", "achieved", "error", "settled after (s), 3 s MA",
                "5 s MA", "low limit mean", "low limit range"});
        r.sweep().forEach(s -> sweep.add(new String[] {Format.cell(s.target()), Format.cell(s.paperTarget()),
                s.feasible() ? "yes" : "no", Format.cell(s.achieved()), AdaptiveSummary.pct(s.errorPct()),
                s.settlingS() == null ? "never" : Format.number(s.settlingS()),
                s.settling5S() == null ? "never" : Format.number(s.settling5S()), Format.cell(s.lowLimitMean()),
                s.lowLimitMin() == null ? "-" : Format.number(s.lowLimitMin()) + "-" + Format.number(s.lowLimitMax())}));
        doc.heading("Targets (Fig. 26)").table(sweep);
        doc.heading("Runs").table(runsTable(r));
        doc.heading("Plots");
        for (AdaptiveResult.Run run : r.runs().values()) {
            if (run.series().isEmpty() || run.kind().equals("probe")) {
                continue;
            }
            String fig = run.kind().equals("original") ? "Fig. 24" : run.kind().equals("collector") ? "Fig. 27"
                    : run.kind().equals("step") ? "Change of target (no figure in the paper)" : "Fig. 25";
            doc.image(run.name() + ".png", fig + ": " + run.name() + ", up-to-date pages/s per second, its 5 s "
                    + "averages" + (run.target() == null ? "" : ", the target and the adaptive low limit (right axis)")
                    + (run.collector() ? "; collections shaded" : ""), timeChart(run));
        }
        if (!r.sweep().isEmpty()) {
            doc.image("sweep.png", "Fig. 26: achieved up-to-date pages/s and mean low limit per target",
                    sweepChart(r));
        }
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Steady part: every figure but the settling time leaves out the first settle_s seconds after "
                + "the up-to-date clients arrived. Settling time: the 3 s centred moving average of the 1 s counts "
                + "enters the band of 2 % around the target and stays in it to the window's end. Response times "
                + "are over the whole window. Every second is in results.json.");
        doc.write(dir);
    }

    private static List<String[]> runsTable(AdaptiveResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"run", "kind", "target", "up-to-date /s", "error", "settled (s)",
                "5 s averages within 2 %", "charts /s", "up-to-date mean ms", "up-to-date p99 ms", "chart mean ms",
                "low limit", "outside / during collections", "collection ms"});
        for (AdaptiveResult.Run x : r.runs().values()) {
            if (x.error() != null) {
                rows.add(new String[] {x.name(), x.kind(), Format.cell(x.target()), "FAILED: " + x.error(), "", "", "",
                        "", "", "", "", "", "", ""});
                continue;
            }
            rows.add(new String[] {x.name(), x.kind(), Format.cell(x.target()), Format.cell(x.middlePerS()),
                    AdaptiveSummary.pct(x.errorPct()), x.target() == null || x.collector() ? "-" : x.settlingS() == null
                    ? "never" : Format.number(x.settlingS()), x.fiveSecondWithin() == null ? "-"
                    : x.fiveSecondWithin() + " of " + x.fiveSecondBlocks(), Format.cell(x.chartPerS()),
                    Format.cell(x.middleMeanMs()), Format.cell(x.middleP99Ms()), Format.cell(x.chartMeanMs()),
                    x.lowLimitMin() == null ? "-" : Format.number(x.lowLimitMin()) + "-" + Format.number(x.lowLimitMax()),
                    x.collections() == null ? "-" : Format.cell(x.middleOutsidePerS()) + " / "
                            + Format.cell(x.middleDuringPerS()), x.collections() == null ? "-"
                    : Format.cell(x.collectionTimeMeanMs()) + " (" + x.collections() + ")"});
        }
        return rows;
    }

    static JFreeChart timeChart(AdaptiveResult.Run run) {
        XYSeries perSecond = new XYSeries("up-to-date pages/s (1 s)");
        XYSeries five = new XYSeries("5 s average");
        XYSeries charts = new XYSeries("charts/s x 10");
        XYSeries limit = new XYSeries("low limit");
        List<AdaptiveResult.Second> s = run.series();
        for (AdaptiveResult.Second x : s) {
            perSecond.add(x.t() + 1, x.middle());
            charts.add(x.t() + 1, x.chart() * 10);
            if (x.lowLimit() != null) {
                limit.add(x.t() + 1, x.lowLimit());
            }
        }
        for (int i = 0; i + AdaptiveAnalysis.BLOCK_S <= s.size(); i += AdaptiveAnalysis.BLOCK_S) {
            double sum = 0;
            for (int j = i; j < i + AdaptiveAnalysis.BLOCK_S; j++) {
                sum += s.get(j).middle();
            }
            five.add(i + AdaptiveAnalysis.BLOCK_S / 2.0, sum / AdaptiveAnalysis.BLOCK_S);
        }
        XYSeriesCollection left = new XYSeriesCollection();
        left.addSeries(perSecond);
        left.addSeries(five);
        left.addSeries(charts);
        JFreeChart c = ChartFactory.createXYLineChart(run.name(), "seconds after the up-to-date clients arrived",
                "pages per second", left, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = c.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer lr = new XYLineAndShapeRenderer(true, false);
        lr.setSeriesPaint(0, new Color(150, 150, 220));
        lr.setSeriesStroke(0, new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {3f, 3f}, 0f));
        lr.setSeriesPaint(1, Color.BLUE);
        lr.setSeriesStroke(1, new BasicStroke(2f));
        lr.setSeriesPaint(2, new Color(0, 140, 0));
        plot.setRenderer(0, lr);
        if (run.target() != null) {
            ValueMarker m = new ValueMarker(run.target(), Color.RED, new BasicStroke(1.5f));
            m.setLabel("target " + Format.cell(run.target()));
            plot.addRangeMarker(m);
        }
        if (!limit.isEmpty()) {
            NumberAxis axis = new NumberAxis("low limit (chart threads)");
            axis.setStandardTickUnits(NumberAxis.createIntegerTickUnits());
            axis.setLowerBound(0);
            plot.setRangeAxis(1, axis);
            plot.setDataset(1, new XYSeriesCollection(limit));
            plot.mapDatasetToRangeAxis(1, 1);
            XYStepRenderer sr = new XYStepRenderer();
            sr.setSeriesPaint(0, Color.DARK_GRAY);
            plot.setRenderer(1, sr);
        }
        int i = 0;
        while (i < s.size()) {
            if (!s.get(i).collecting()) {
                i++;
                continue;
            }
            int j = i;
            while (j < s.size() && s.get(j).collecting()) {
                j++;
            }
            plot.addDomainMarker(new IntervalMarker(i, j, new Color(255, 200, 120, 90)));
            i = j;
        }
        return c;
    }

    static JFreeChart sweepChart(AdaptiveResult r) {
        XYSeries achieved = new XYSeries("achieved pages/s");
        XYSeries ideal = new XYSeries("= target");
        XYSeries limit = new XYSeries("mean low limit");
        for (AdaptiveResult.SweepPoint s : r.sweep()) {
            if (s.achieved() != null) {
                achieved.add(s.target(), s.achieved());
            }
            ideal.add(s.target(), s.target());
            if (s.lowLimitMean() != null) {
                limit.add(s.target(), s.lowLimitMean());
            }
        }
        XYSeriesCollection left = new XYSeriesCollection();
        left.addSeries(achieved);
        left.addSeries(ideal);
        JFreeChart c = ChartFactory.createXYLineChart("Achieved against target (Fig. 26)", "target (pages/s)",
                "up-to-date pages/s", left, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = c.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRenderer(0, new XYLineAndShapeRenderer(true, true));
        if (r.feasible() != null && r.feasible().low() != null && r.feasible().high() != null) {
            plot.addDomainMarker(new IntervalMarker(r.feasible().low(), r.feasible().high(),
                    new Color(180, 230, 180, 80)));
        }
        NumberAxis axis = new NumberAxis("mean low limit (chart threads)");
        axis.setLowerBound(0);
        plot.setRangeAxis(1, axis);
        plot.setDataset(1, new XYSeriesCollection(limit));
        plot.mapDatasetToRangeAxis(1, 1);
        plot.setRenderer(1, new XYLineAndShapeRenderer(true, true));
        return c;
    }
}
