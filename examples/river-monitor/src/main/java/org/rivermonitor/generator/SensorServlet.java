package org.rivermonitor.generator;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.util.Locale;

/**
 * The sensor web service: {@code GET /sensors/{riverId}/level} answers the gauge's current reading
 * as {@code {"river":7,"ts":1700000000000,"level_m":2.345}}.
 */
public final class SensorServlet extends HttpServlet {

    private final SensorModel[] models;
    private final Clock clock;

    public SensorServlet(long seed, int rivers, Clock clock) {
        this.models = new SensorModel[rivers + 1];
        for (int id = 1; id <= rivers; id++) {
            models[id] = SensorModel.forRiver(seed, id);
        }
        this.clock = clock;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        String path = req.getPathInfo();
        if (path == null || !path.endsWith("/level")) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND, "use /sensors/{riverId}/level");
            return;
        }
        String idText = path.substring(1, path.length() - "/level".length());
        int id;
        try {
            id = Integer.parseInt(idText);
        } catch (NumberFormatException e) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND, "no such sensor: " + idText);
            return;
        }
        if (id < 1 || id >= models.length) {
            resp.sendError(HttpServletResponse.SC_NOT_FOUND, "no such sensor: " + id);
            return;
        }
        long now = clock.millis();
        double level = models[id].levelAt(now);
        resp.setContentType("application/json");
        resp.setHeader("Cache-Control", "no-store");
        resp.getWriter().write(String.format(Locale.ROOT, "{\"river\":%d,\"ts\":%d,\"level_m\":%.3f}", id, now, level));
    }
}
