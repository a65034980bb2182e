package org.rivermonitor.collector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rivermonitor.Reading;
import org.rivermonitor.River;
import org.rivermonitor.db.Database;
import org.rivermonitor.log.SyncLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic data collection. Each call of {@link #collect()} fetches the current level of every
 * river from the sensor web service, one request per river in sequence, keeps the latest levels in
 * memory and stores the readings in the database. A timer calls it once per period; a collection
 * that takes longer than the period is logged as having missed its deadline and simply finishes,
 * and the next one starts when the timer gets to it.
 *
 * <p>The timer runs at a fixed rate, so after an overrun the collections it owes run back to back
 * until it is on schedule again (as the paper's collector "continues to collect the rest of the
 * water levels in the next time period"). Once told its schedule ({@link #scheduledFrom}), each
 * collection records how late it started against its own slot ({@link CollectionRecord#lateMs}):
 * a collection that starts late is catching up, whatever its duration.
 */
public final class Collector {

    private static final Logger LOG = LoggerFactory.getLogger(Collector.class);

    private final List<River> rivers;
    private final String generatorUrl;
    private final Database db;
    private final LatestLevels levels;
    private final CollectionLog log;
    private final long periodMs;
    private final HttpClient http;
    /** {@code --sync-log}, or null. */
    private final SyncLog syncLog;
    private final ObjectMapper json = new ObjectMapper();
    /** The first slot's start (System.nanoTime), or Long.MIN_VALUE while no schedule is known. */
    private volatile long firstSlotNanos = Long.MIN_VALUE;
    /**
     * Collections started since the schedule began: the index of the next slot. Reset by
     * {@link #scheduledFrom} before the timer starts (published by the volatile write after it),
     * then read and written by the timer's one thread only.
     */
    private long slot;

    public Collector(List<River> rivers, String generatorUrl, Database db, LatestLevels levels,
                     CollectionLog log, Duration period) {
        this(rivers, generatorUrl, db, levels, log, period, null);
    }

    /** With {@code syncLog} (may be null): one line per reading obtained. */
    public Collector(List<River> rivers, String generatorUrl, Database db, LatestLevels levels,
                     CollectionLog log, Duration period, SyncLog syncLog) {
        this.syncLog = syncLog;
        this.rivers = rivers;
        this.generatorUrl = generatorUrl;
        this.db = db;
        this.levels = levels;
        this.log = log;
        this.periodMs = period.toMillis();
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    /**
     * Tells the collector that a fixed-rate timer calls {@link #collect()} from now on, its first
     * call due at {@code firstSlotNanos} ({@link System#nanoTime}) and one every period after it.
     */
    public void scheduledFrom(long firstSlotNanos) {
        slot = 0;
        this.firstSlotNanos = firstSlotNanos;
    }

    /** Performs one whole collection; never throws, so that the timer keeps running. */
    public void collect() {
        long startMs = System.currentTimeMillis();
        long t0 = System.nanoTime();
        long first = firstSlotNanos;
        long lateMs = 0;
        if (first != Long.MIN_VALUE) {
            long due = first + slot++ * periodMs * 1_000_000L;
            lateMs = Math.max(0, (t0 - due) / 1_000_000);
        }
        int errors = 0;
        String firstError = null;
        List<Reading> readings = new ArrayList<>(rivers.size());
        for (River river : rivers) {
            try {
                Reading r = fetch(river.id());
                levels.update(r);
                readings.add(r);
                if (syncLog != null) {
                    syncLog.writeCollection(r);
                }
            } catch (IOException | RuntimeException e) {
                errors++;
                if (firstError == null) {
                    firstError = "river " + river.id() + ": " + e;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                LOG.warn("collection interrupted after {} readings", readings.size());
                return;
            }
        }
        if (errors > 0) {
            LOG.warn("{} of {} sensors could not be read (first: {})", errors, rivers.size(), firstError);
        }
        boolean stored = false;
        try {
            db.insert(readings);
            stored = true;
        } catch (Exception e) {
            LOG.error("could not store {} readings, keeping them in memory only: {}", readings.size(), e.toString());
        }
        long durationMs = (System.nanoTime() - t0) / 1_000_000;
        CollectionRecord record = new CollectionRecord(startMs, durationMs, readings.size(), errors, stored,
                durationMs > periodMs, periodMs, lateMs);
        log.add(record);
        if (record.missedDeadline()) {
            LOG.warn("collection start={} duration_ms={} readings={} missed_deadline=true period_ms={} late_ms={}",
                    startMs, durationMs, readings.size(), periodMs, lateMs);
        } else {
            LOG.info("collection start={} duration_ms={} readings={} missed_deadline=false period_ms={} late_ms={}",
                    startMs, durationMs, readings.size(), periodMs, lateMs);
        }
    }

    private Reading fetch(int riverId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(generatorUrl + "/sensors/" + riverId + "/level"))
                .timeout(Duration.ofSeconds(5))
                .GET()
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("HTTP " + response.statusCode());
        }
        JsonNode node = json.readTree(response.body());
        JsonNode level = node.get("level_m");
        JsonNode ts = node.get("ts");
        if (level == null || !level.isNumber()) {
            throw new IOException("no level_m in " + response.body());
        }
        long when = ts != null && ts.canConvertToLong() ? ts.asLong() : System.currentTimeMillis();
        return new Reading(riverId, when, level.asDouble());
    }

    public long periodMs() {
        return periodMs;
    }
}
