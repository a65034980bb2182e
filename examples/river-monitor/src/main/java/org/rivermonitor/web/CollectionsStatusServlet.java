package org.rivermonitor.web;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.rivermonitor.collector.CollectionLog;
import org.rivermonitor.collector.CollectionRecord;

/**
 * {@code GET /status/collections[?since=EPOCH_MS]}: the recent collections, oldest first:
 * <pre>{"period_ms":15000,"rivers":100,"count":2,"missed":0,"collections":[
 *   {"start_ms":1700000000000,"duration_ms":812,"readings":100,"errors":0,"stored":true,
 *    "missed_deadline":false,"period_ms":15000,"late_ms":0}, ...]}</pre>
 * {@code late_ms}: how long after its slot in the timer's fixed-rate schedule it started.
 * {@code since} keeps only collections with {@code start_ms >= since}.
 */
public final class CollectionsStatusServlet extends HttpServlet {

    private static final JsonFactory JSON = new JsonFactory();

    private final CollectionLog log;
    private final long periodMs;
    private final int rivers;

    public CollectionsStatusServlet(CollectionLog log, long periodMs, int rivers) {
        this.log = log;
        this.periodMs = periodMs;
        this.rivers = rivers;
    }

    @Override
    protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
        long since = Long.MIN_VALUE;
        String sinceText = req.getParameter("since");
        if (sinceText != null) {
            try {
                since = Long.parseLong(sinceText.trim());
            } catch (NumberFormatException e) {
                Params.badRequest(resp, "bad 'since': " + sinceText + " (epoch milliseconds)");
                return;
            }
        }
        List<CollectionRecord> all = log.snapshot();
        final long from = since;
        List<CollectionRecord> records = all.stream().filter(r -> r.startMs() >= from).toList();
        resp.setContentType("application/json");
        resp.setHeader("Cache-Control", "no-store");
        try (JsonGenerator g = JSON.createGenerator(resp.getWriter())) {
            g.writeStartObject();
            g.writeNumberField("period_ms", periodMs);
            g.writeNumberField("rivers", rivers);
            g.writeNumberField("count", records.size());
            g.writeNumberField("missed", records.stream().filter(CollectionRecord::missedDeadline).count());
            g.writeArrayFieldStart("collections");
            for (CollectionRecord r : records) {
                g.writeStartObject();
                g.writeNumberField("start_ms", r.startMs());
                g.writeNumberField("duration_ms", r.durationMs());
                g.writeNumberField("readings", r.readings());
                g.writeNumberField("errors", r.errors());
                g.writeBooleanField("stored", r.stored());
                g.writeBooleanField("missed_deadline", r.missedDeadline());
                g.writeNumberField("period_ms", r.periodMs());
                g.writeNumberField("late_ms", r.lateMs());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }
}
