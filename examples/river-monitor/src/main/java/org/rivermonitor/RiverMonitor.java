package org.rivermonitor;

import jakarta.servlet.http.HttpServlet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.rivermonitor.collector.CollectionLog;
import org.rivermonitor.collector.Collector;
import org.rivermonitor.collector.LatestLevels;
import org.rivermonitor.db.Database;
import org.rivermonitor.db.HistorySeeder;
import org.rivermonitor.generator.GeneratorServer;
import org.rivermonitor.log.SyncLog;
import org.rivermonitor.web.ChartServlet;
import org.rivermonitor.web.CollectionsStatusServlet;
import org.rivermonitor.web.IndexServlet;
import org.rivermonitor.web.LevelsImageServlet;
import org.rivermonitor.web.LevelsServlet;
import org.rivermonitor.web.MonitorServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running application: optional in-process generator, database (seeded with history), web
 * server and the collection timer. {@link #start(Options)} returns once everything serves.
 */
public final class RiverMonitor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RiverMonitor.class);

    /** Collections kept for /status/collections. */
    static final int COLLECTION_HISTORY = 1000;

    private final Options options;
    private GeneratorServer generator;
    private String generatorUrl;
    private Database db;
    private MonitorServer web;
    private ScheduledExecutorService timer;
    private List<River> rivers;
    private LatestLevels levels;
    private CollectionLog collections;
    private Collector collector;
    private SyncLog syncLog;

    private RiverMonitor(Options options) {
        this.options = options;
    }

    /** Starts the generator only (for --generator-only). */
    public static GeneratorServer startGenerator(Options o) throws Exception {
        return new GeneratorServer(o.host, o.generatorPort, o.seed, o.rivers).start();
    }

    public static RiverMonitor start(Options o) throws Exception {
        RiverMonitor app = new RiverMonitor(o);
        try {
            app.doStart();
            return app;
        } catch (Exception | Error e) {
            app.close();
            throw e;
        }
    }

    private void doStart() throws Exception {
        Options o = options;
        rivers = River.all(o.rivers, o.seed);
        if (o.generatorUrl != null) {
            generatorUrl = o.generatorUrl;
        } else {
            generator = startGenerator(o);
            generatorUrl = generator.url();
        }
        db = new Database(o.jdbcUrl, o.jdbcUser, o.jdbcPassword, o.dbPoolSize);
        db.createSchema();
        levels = new LatestLevels(o.rivers);
        long periodMs = o.period.toMillis();
        if (o.historyHours > 0) {
            for (Reading r : new HistorySeeder(db, o.seed).seed(rivers, o.historyHours, periodMs,
                    System.currentTimeMillis())) {
                levels.update(r);
            }
        }
        collections = new CollectionLog(COLLECTION_HISTORY);
        if (o.syncLog != null) {
            syncLog = SyncLog.open(o.syncLog);
            LOG.info("--sync-log: the collector and the charts write through a synchronized log ({})", o.syncLog);
        }
        collector = new Collector(rivers, generatorUrl, db, levels, collections, o.period, syncLog);

        Map<String, HttpServlet> servlets = MonitorServer.servlets();
        servlets.put("", new IndexServlet());
        servlets.put("/chart", new ChartServlet(db, rivers, syncLog));
        servlets.put("/levels", new LevelsServlet(rivers, levels));
        servlets.put("/levels.png", new LevelsImageServlet(rivers, levels));
        servlets.put("/status/collections", new CollectionsStatusServlet(collections, periodMs, rivers.size()));
        web = new MonitorServer(o.host, o.port, servlets).start();

        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "collector-timer");
            t.setDaemon(true);
            return t;
        });
        if (o.noCollector) {
            LOG.info("--no-collector: not collecting; {} rivers of seeded history", rivers.size());
        } else {
            collector.scheduledFrom(System.nanoTime() + periodMs * 1_000_000L);
            timer.scheduleAtFixedRate(collector::collect, periodMs, periodMs, TimeUnit.MILLISECONDS);
            LOG.info("collecting {} rivers every {} ms from {}", rivers.size(), periodMs, generatorUrl);
        }
    }

    public int port() {
        return web.port();
    }

    public String url() {
        return "http://" + hostForUrl(options.host) + ":" + port();
    }

    public String generatorUrl() {
        return generatorUrl;
    }

    public Database database() {
        return db;
    }

    public LatestLevels levels() {
        return levels;
    }

    public CollectionLog collections() {
        return collections;
    }

    public Collector collector() {
        return collector;
    }

    /** The {@code --sync-log} log, or null. */
    public SyncLog syncLog() {
        return syncLog;
    }

    public List<River> rivers() {
        return rivers;
    }

    /** The start-up line, parsed by scripts: keep its form. */
    public String listeningLine() {
        return "river-monitor listening on " + url() + " (generator " + generatorUrl + ")";
    }

    static String hostForUrl(String host) {
        if (host == null || host.isEmpty() || host.equals("0.0.0.0")) {
            return "127.0.0.1";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        stop(web);
        stop(generator);
        if (db != null) {
            db.close();
        }
        stop(syncLog);
    }

    private static void stop(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            LOG.warn("error while stopping: {}", e.toString());
        }
    }
}
