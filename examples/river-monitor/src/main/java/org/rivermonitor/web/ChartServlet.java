package org.rivermonitor.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.SQLException;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.rivermonitor.River;
import org.rivermonitor.chart.WaterLevelChart;
import org.rivermonitor.db.Database;
import org.rivermonitor.db.Series;
import org.rivermonitor.log.SyncLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /chart?river=ID&hours=3|6|12|24}: the river's water levels over the window, read
 * from the database and drawn as a PNG.
 */
public final class ChartServlet extends HttpServlet {

    private static final Logger LOG = LoggerFactory.getLogger(ChartServlet.class);
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** More points than this are averaged in buckets: a 1000-pixel chart cannot show them. */
    static final int MAX_POINTS = 3000;

    private final Database db;
    private final List<River> rivers;
    /** {@code --sync-log}, or null. */
    private final SyncLog syncLog;

    public ChartServlet(Database db, List<River> rivers) {
        this(db, rivers, null);
    }

    public ChartServlet(Database db, List<River> rivers, SyncLog syncLog) {
        this.db = db;
        this.rivers = rivers;
        this.syncLog = syncLog;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        River river = Params.river(req, resp, rivers);
        if (river == null) {
            return;
        }
        String hoursText = req.getParameter("hours");
        int hours;
        if (hoursText == null) {
            Params.badRequest(resp, "missing parameter 'hours' (3, 6, 12 or 24)");
            return;
        }
        switch (hoursText.trim()) {
            case "3" -> hours = 3;
            case "6" -> hours = 6;
            case "12" -> hours = 12;
            case "24" -> hours = 24;
            default -> {
                Params.badRequest(resp, "bad 'hours': " + hoursText + " (3, 6, 12 or 24)");
                return;
            }
        }
        boolean debug = LOG.isDebugEnabled();
        long cpu0 = debug ? THREADS.getCurrentThreadCpuTime() : 0;
        long wall0 = debug ? System.nanoTime() : 0;

        long now = System.currentTimeMillis();
        Series data;
        try {
            data = db.window(river.id(), now - hours * 3_600_000L, now).downsample(MAX_POINTS);
        } catch (SQLException e) {
            LOG.warn("chart river={} hours={}: database unavailable: {}", river.id(), hours, e.toString());
            resp.setHeader("Retry-After", "5");
            Params.error(resp, HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    "water-level database unavailable, please retry later");
            return;
        }
        if (syncLog != null) {
            syncLog.writeGeneration(river.id(), hours, data.size());
        }
        byte[] png = render(river, data, hours, now);
        resp.setContentType("image/png");
        resp.setHeader("Cache-Control", "no-cache");
        resp.setContentLength(png.length);
        resp.getOutputStream().write(png);

        if (debug) {
            LOG.debug("chart river={} hours={} points={} bytes={} cpu_ms={} wall_ms={}", river.id(), hours,
                    data.size(), png.length, (THREADS.getCurrentThreadCpuTime() - cpu0) / 1_000_000,
                    (System.nanoTime() - wall0) / 1_000_000);
        }
    }

    /** Draws the chart and encodes it as PNG, on the calling thread. */
    public static byte[] render(River river, Series data, int hours, long nowMs) throws IOException {
        JFreeChart chart = WaterLevelChart.create(river, data, hours, nowMs);
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        ChartUtils.writeChartAsPNG(out, chart, WaterLevelChart.WIDTH, WaterLevelChart.HEIGHT);
        return out.toByteArray();
    }
}
