package org.rivermonitor.db;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.rivermonitor.Reading;
import org.rivermonitor.River;
import org.rivermonitor.generator.SensorModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fills the database with the recent past of every river, at the collector's resolution, so that
 * every chart is full from the first minute. The values come from the same sensor model as the
 * generator, so history and live readings join up. Rivers that already have recent rows (a
 * persistent database) are only topped up from their newest row.
 */
public final class HistorySeeder {

    private static final Logger LOG = LoggerFactory.getLogger(HistorySeeder.class);
    private static final long PROGRESS_EVERY_NANOS = 10_000_000_000L;

    private final Database db;
    private final long seed;

    public HistorySeeder(Database db, long seed) {
        this.db = db;
        this.seed = seed;
    }

    /** Seeds [nowMs - hours, nowMs) with one reading per stepMs; returns the last reading of each river. */
    public List<Reading> seed(List<River> rivers, double hours, long stepMs, long nowMs) throws SQLException {
        long t0 = System.nanoTime();
        long from = nowMs - (long) (hours * 3_600_000);
        List<Reading> latest = new ArrayList<>(rivers.size());
        long rows = 0;
        List<Reading> batch = new ArrayList<>();
        long lastReport = t0;
        int done = 0;
        for (River river : rivers) {
            // 24 h of 900 rivers at 0.5 s is 155 million rows, minutes of work: say how far it got
            if (System.nanoTime() - lastReport >= PROGRESS_EVERY_NANOS) {
                lastReport = System.nanoTime();
                LOG.info("seeding history: {} of {} rivers, {} rows so far, {} s", done, rivers.size(), rows,
                        (lastReport - t0) / 1_000_000_000);
            }
            done++;
            SensorModel model = SensorModel.forRiver(seed, river.id());
            long start = from;
            long newest = db.latestTs(river.id());
            if (newest >= from) {
                start = newest + stepMs;
            }
            // Align the series to the period so that all rivers share the same sample instants.
            long first = start + Math.floorMod(nowMs - start, stepMs);
            Reading last = null;
            for (long t = first; t < nowMs; t += stepMs) {
                last = new Reading(river.id(), t, model.levelAt(t));
                batch.add(last);
            }
            if (batch.size() >= 20_000) {
                db.insert(batch);
                rows += batch.size();
                batch.clear();
            }
            latest.add(last != null ? last : new Reading(river.id(), nowMs, model.levelAt(nowMs)));
        }
        db.insert(batch);
        rows += batch.size();
        LOG.info("seeded {} rows of history ({} h, step {} ms, {} rivers) in {} ms",
                rows, hours, stepMs, rivers.size(), (System.nanoTime() - t0) / 1_000_000);
        return latest;
    }
}
