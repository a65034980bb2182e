package org.rivermonitor.chart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.text.SimpleDateFormat;
import java.util.Date;
import java.util.TimeZone;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.DateAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.chart.renderer.xy.XYAreaRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.Layer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.time.Millisecond;
import org.jfree.data.time.TimeSeries;
import org.jfree.data.time.TimeSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.rivermonitor.River;
import org.rivermonitor.db.Series;

/**
 * The water-level chart of one river: every reading as a marked line, the trailing one-hour
 * average with the hour's min-max band, the warning and danger levels, and below it the rate of change.
 */
public final class WaterLevelChart {

    public static final int WIDTH = 1200;
    public static final int HEIGHT = 700;

    private static final Color LEVEL = new Color(0x1f, 0x6f, 0xb4);
    private static final Color RATE = new Color(0x5d, 0xad, 0xe2);
    private static final long RATE_WINDOW_MS = 15 * 60_000L;
    private static final Color AVERAGE = new Color(0xe6, 0x7e, 0x22);

    private WaterLevelChart() {
    }

    public static JFreeChart create(River river, Series data, int hours, long nowMs) {
        TimeSeries levels = new TimeSeries("Water level");
        for (int i = 0; i < data.size(); i++) {
            levels.add(new Millisecond(new Date(data.ts(i))), data.level(i), false);
        }
        TimeSeriesCollection dataset = new TimeSeriesCollection(levels);

        DateAxis time = new DateAxis("Time");
        SimpleDateFormat format = new SimpleDateFormat(hours <= 6 ? "HH:mm" : "dd HH:mm");
        format.setTimeZone(TimeZone.getDefault());
        time.setDateFormatOverride(format);
        time.setRange(new Date(nowMs - hours * 3_600_000L), new Date(nowMs));
        NumberAxis level = new NumberAxis("Level (m)");
        level.setAutoRangeIncludesZero(false);

        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setSeriesPaint(0, LEVEL);
        renderer.setSeriesStroke(0, new BasicStroke(1.2f));
        renderer.setSeriesShape(0, new Ellipse2D.Double(-1.5, -1.5, 3, 3));
        renderer.setSeriesShapesFilled(0, true);

        XYPlot plot = new XYPlot(dataset, null, level, renderer);
        // The trailing one-hour average, with the hour's range as a band, drawn under the readings.
        plot.setDataset(1, envelope(data));
        DeviationRenderer band = new DeviationRenderer(true, false);
        band.setSeriesPaint(0, AVERAGE);
        band.setSeriesFillPaint(0, AVERAGE);
        band.setAlpha(0.25f);
        band.setSeriesStroke(0, new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        plot.setRenderer(1, band);
        plot.setBackgroundPaint(new GradientPaint(0, 0, new Color(0xf4, 0xf8, 0xfc), 0, HEIGHT, new Color(0xdd, 0xe8, 0xf2)));
        plot.setDomainGridlinePaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.WHITE);
        plot.addRangeMarker(marker(river.warningLevelM(), "warning", new Color(0xf3, 0x9c, 0x12)), Layer.BACKGROUND);
        plot.addRangeMarker(marker(river.dangerLevelM(), "danger", new Color(0xc0, 0x39, 0x2b)), Layer.BACKGROUND);
        double max = river.dangerLevelM() + 0.5;
        for (int i = 0; i < data.size(); i++) {
            max = Math.max(max, data.level(i) + 0.2);
        }
        level.setRange(0, Math.ceil(max));

        // Rate of change over the last 15 minutes, in cm/h: rising water is what people look for.
        TimeSeries rate = new TimeSeries("Rate of change");
        int j = 0;
        for (int i = 0; i < data.size(); i++) {
            while (data.ts(i) - data.ts(j) > RATE_WINDOW_MS) {
                j++;
            }
            long dt = data.ts(i) - data.ts(j);
            if (dt >= RATE_WINDOW_MS / 2) {
                rate.add(new Millisecond(new Date(data.ts(i))), (data.level(i) - data.level(j)) * 100 * 3_600_000.0 / dt, false);
            }
        }
        NumberAxis rateAxis = new NumberAxis("cm/h");
        XYAreaRenderer rateRenderer = new XYAreaRenderer(XYAreaRenderer.AREA_AND_SHAPES);
        rateRenderer.setSeriesPaint(0, RATE);
        rateRenderer.setSeriesShape(0, new Ellipse2D.Double(-1.5, -1.5, 3, 3));
        rateRenderer.setOutline(true);
        XYPlot ratePlot = new XYPlot(new TimeSeriesCollection(rate), null, rateAxis, rateRenderer);
        ratePlot.setBackgroundPaint(new Color(0xf4, 0xf8, 0xfc));
        ratePlot.setRangeGridlinePaint(Color.WHITE);
        ratePlot.setDomainGridlinePaint(Color.WHITE);

        CombinedDomainXYPlot combined = new CombinedDomainXYPlot(time);
        combined.setGap(8);
        combined.add(plot, 3);
        combined.add(ratePlot, 1);
        JFreeChart chart = new JFreeChart(null, JFreeChart.DEFAULT_TITLE_FONT, combined, true);
        chart.addSubtitle(new TextTitle(river.name() + " (#" + river.id() + "): last " + hours + " hours",
                new Font(Font.SANS_SERIF, Font.BOLD, 16)));
        chart.setBackgroundPaint(Color.WHITE);
        chart.setAntiAlias(true);
        chart.setTextAntiAlias(RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        return chart;
    }

    /** The range (min to max) of the readings in the hour up to each reading. */
    private static YIntervalSeriesCollection envelope(Series data) {
        YIntervalSeries range = new YIntervalSeries("1 h average and range");
        for (int i = 0; i < data.size(); i++) {
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            double sum = 0;
            int n = 0;
            for (int j = i; j >= 0 && data.ts(i) - data.ts(j) < 3_600_000L; j--) {
                min = Math.min(min, data.level(j));
                max = Math.max(max, data.level(j));
                sum += data.level(j);
                n++;
            }
            range.add(data.ts(i), sum / n, min, max);
        }
        YIntervalSeriesCollection c = new YIntervalSeriesCollection();
        c.addSeries(range);
        return c;
    }

    private static ValueMarker marker(double value, String label, Color color) {
        ValueMarker m = new ValueMarker(value, color, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        m.setLabel(label + " " + value + " m");
        m.setLabelPaint(color);
        m.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        m.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        return m;
    }
}
