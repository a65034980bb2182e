package io.qosweaver.bench.testing;

import io.qosweaver.bench.testing.TestServer.Reply;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the river monitor that keeps its command-line and HTTP contract (and, with
 * {@code --fake-agent}, the agent's metrics line), so the runner is tested without the real
 * app. Rivers are 1-based like the real one; a collection takes 20 ms. {@code GET /fake/metrics-scrapes}
 * says how many times {@code /metrics} was asked, {@code GET /fake/charts-by-hours} how many charts of
 * each window were asked ({@code {12=40, 3=35}}).
 */
public final class FakeRiverMonitor {
    public static void main(String[] args) throws Exception {
        double period = 1;
        int rivers = 100;
        boolean agent = false;
        boolean failCharts = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--period" -> period = Double.parseDouble(args[++i]);
                case "--rivers" -> rivers = Integer.parseInt(args[++i]);
                case "--fake-agent" -> agent = true;
                case "--fail-charts" -> failCharts = true;
                default -> { }
            }
        }
        long periodMs = Math.round(period * 1000);
        int n = rivers;
        List<String> records = new ArrayList<>();
        TestServer server = new TestServer();
        boolean headlessBroken = failCharts;
        if (headlessBroken) {
            // what a JVM without its font libraries logs at the first chart, before every chart fails
            System.err.println("java.lang.UnsatisfiedLinkError: /usr/lib/jvm/lib/libfontmanager.so: libfreetype.so.6:"
                    + " cannot open shared object file");
        }
        java.util.Map<String, AtomicInteger> chartsByHours = new java.util.concurrent.ConcurrentSkipListMap<>();
        server.route("/fake/charts-by-hours", q -> Reply.ok(chartsByHours.toString()));
        server.route("/chart", q -> {
            int river = Integer.parseInt(q.replaceAll(".*river=(\\d+).*", "$1"));
            chartsByHours.computeIfAbsent(q.replaceAll(".*hours=(\\d+).*", "$1"), k -> new AtomicInteger())
                    .incrementAndGet();
            return river < 1 || river > n ? new Reply(400, "text/plain", "unknown river", 0)
                    : headlessBroken ? new Reply(500, "text/plain", "internal error", 0)
                    : new Reply(200, "image/png", "png", 5);
        });
        server.route("/levels", q -> Reply.ok("<html></html>"));
        server.route("/levels.png", q -> Reply.ok("png"));
        server.route("/status/collections", q -> {
            synchronized (records) {
                return new Reply(200, "application/json", "{\"period_ms\":" + periodMs + ",\"collections\":["
                        + String.join(",", records) + "]}", 0);
            }
        });
        AtomicInteger scrapes = new AtomicInteger();
        server.route("/fake/metrics-scrapes", q -> Reply.ok(Integer.toString(scrapes.get())));
        server.route("/metrics", q -> {
            scrapes.incrementAndGet();
            return Reply.ok(String.join("\n",
                    "qosweaver_suspension_time_seconds{quantile=\"0.5\"} 0.001",
                    "qosweaver_suspension_time_seconds{quantile=\"0.99\"} 0.002",
                    "qosweaver_suspension_time_seconds_count 3",
                    "qosweaver_suspension_time_seconds_sum 0.003",
                    "qosweaver_running_threads{task_class=\"chart\"} 1", ""));
        });
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        timer.scheduleAtFixedRate(() -> {
            long start = System.currentTimeMillis();
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                return;
            }
            long d = System.currentTimeMillis() - start;
            synchronized (records) {
                records.add("{\"start_ms\":" + start + ",\"duration_ms\":" + d + ",\"readings\":" + n
                        + ",\"missed_deadline\":" + (d > periodMs) + ",\"period_ms\":" + periodMs + "}");
            }
        }, 100, periodMs, TimeUnit.MILLISECONDS);
        if (agent) {
            System.out.println("[qosweaver] metrics on http://127.0.0.1:" + server.port() + "/metrics");
        }
        System.out.println("river-monitor generator listening on http://127.0.0.1:1");
        System.out.println("river-monitor listening on http://127.0.0.1:" + server.port()
                + " (generator http://127.0.0.1:1)");
        System.out.flush();
        new CountDownLatch(1).await();
    }
}
