package org.rivermonitor.web;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.rivermonitor.Reading;
import org.rivermonitor.River;
import org.rivermonitor.collector.LatestLevels;

/** {@code GET /levels}: the up-to-date level of every river as an HTML table, from memory. */
public final class LevelsServlet extends HttpServlet {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final List<River> rivers;
    private final LatestLevels levels;

    public LevelsServlet(List<River> rivers, LatestLevels levels) {
        this.rivers = rivers;
        this.levels = levels;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        StringBuilder html = new StringBuilder(256 + rivers.size() * 256);
        html.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>River levels</title>")
            .append("<meta http-equiv=\"refresh\" content=\"15\">")
            .append("<style>body{font-family:sans-serif}table{border-collapse:collapse}")
            .append("td,th{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}")
            .append("td.n{text-align:left}.warning{background:#fdebd0}.danger{background:#f5b7b1}</style>")
            .append("</head><body><h1>Current river levels</h1><p><img src=\"levels.png\" alt=\"levels\"></p>\n")
            .append("<table><tr><th>#</th><th>River</th><th>Level (m)</th><th>Trend</th>")
            .append("<th>Warning (m)</th><th>Danger (m)</th><th>Reading time</th><th>Charts</th></tr>\n");
        for (River river : rivers) {
            Reading r = levels.get(river.id());
            Reading p = levels.previous(river.id());
            String state = r == null ? "" : r.levelM() >= river.dangerLevelM() ? "danger"
                    : r.levelM() >= river.warningLevelM() ? "warning" : "normal";
            html.append("<tr class=\"").append(state).append("\"><td>").append(river.id())
                .append("</td><td class=\"n\">").append(escape(river.name())).append("</td><td>")
                .append(r == null ? "-" : String.format(Locale.ROOT, "%.3f", r.levelM())).append("</td><td>")
                .append(trend(r, p)).append("</td><td>").append(river.warningLevelM()).append("</td><td>")
                .append(river.dangerLevelM()).append("</td><td>")
                .append(r == null ? "-" : TIME.format(Instant.ofEpochMilli(r.ts()))).append("</td><td>");
            for (int h : new int[] {3, 6, 12, 24}) {
                html.append("<a href=\"chart?river=").append(river.id()).append("&amp;hours=").append(h)
                    .append("\">").append(h).append("h</a> ");
            }
            html.append("</td></tr>\n");
        }
        html.append("</table></body></html>\n");
        resp.setContentType("text/html;charset=utf-8");
        resp.setHeader("Cache-Control", "no-cache");
        resp.getWriter().write(html.toString());
    }

    private static String trend(Reading r, Reading p) {
        if (r == null || p == null) {
            return "";
        }
        double d = r.levelM() - p.levelM();
        return d > 0.005 ? "&uarr;" : d < -0.005 ? "&darr;" : "&rarr;";
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
