package io.qosweaver.agent;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code GET /metrics} on the loopback interface only, in Prometheus text format: the
 * scheduler's statistics followed by the agent's own counters. {@code GET /timeline?since=N}:
 * the scheduler's running-threads timeline from sequence number N (for Fig. 16-style plots).
 *
 * <p>The JDK server's dispatcher thread inherits daemon status from the thread that calls
 * {@code start()}, so it is started from a daemon thread: the endpoint must never keep the
 * application's JVM alive.
 */
final class MetricsServer {
    private final HttpServer server;

    private MetricsServer(HttpServer server) {
        this.server = server;
    }

    void stop() {
        server.stop(0);
    }

    int port() {
        return server.getAddress().getPort();
    }

    static MetricsServer start(int port, AgentRuntime runtime) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "qosweaver-metrics");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/metrics", exchange -> serve(exchange, runtime));
        server.createContext("/profile/", MetricsServer::profile);
        server.createContext("/timeline", MetricsServer::timeline);
        server.createContext("/intervals/", MetricsServer::intervals);
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread starter = new Thread(() -> {
            try {
                server.start();
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }, "qosweaver-metrics-start");
        starter.setDaemon(true);
        starter.start();
        starter.join();
        if (failure.get() != null) {
            throw failure.get();
        }
        return new MetricsServer(server);
    }

    /**
     * {@code POST /profile/start}, {@code POST /profile/stop}, {@code GET /profile/status}: one
     * line of text. Loopback only, like {@code /metrics}; POST so that a crawler or a prefetching
     * browser cannot switch it.
     */
    private static void profile(HttpExchange exchange) throws IOException {
        try (exchange) {
            String op = exchange.getRequestURI().getPath().substring("/profile/".length());
            String method = exchange.getRequestMethod();
            Profiling p = Profiling.current();
            int status = 200;
            String text;
            if (p == null) {
                status = 409;
                text = "the agent is not in profiling mode (start it with profile=FILE,include=PKG)";
            } else if (op.equals("status") && method.equals("GET")) {
                text = p.status();
            } else if ((op.equals("start") || op.equals("stop")) && method.equals("POST")) {
                text = op.equals("start") ? p.start() : p.stop();
            } else if (op.equals("start") || op.equals("stop") || op.equals("status")) {
                status = 405;
                text = "use POST /profile/start, POST /profile/stop, GET /profile/status";
            } else {
                status = 404;
                text = "unknown: /profile/" + op + " (use POST /profile/start, POST /profile/stop, GET /profile/status)";
            }
            byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /**
     * {@code POST /intervals/start}, {@code POST /intervals/stop}, {@code GET /intervals/status}:
     * switches the measurement of control-point intervals (the histogram
     * {@code qosweaver_control_point_interval_seconds} in {@code /metrics}). Off, it costs nothing;
     * on, every control point reads the clock.
     */
    private static void intervals(HttpExchange exchange) throws IOException {
        try (exchange) {
            String op = exchange.getRequestURI().getPath().substring("/intervals/".length());
            String method = exchange.getRequestMethod();
            int status = 200;
            String text;
            if (op.equals("status") && method.equals("GET")) {
                text = SchedulerGateway.measuringIntervals() ? "measuring" : "off";
            } else if ((op.equals("start") || op.equals("stop")) && method.equals("POST")) {
                boolean changed = SchedulerGateway.measureIntervals(op.equals("start"));
                text = (op.equals("start") ? "measuring" : "off") + (changed ? "" : " (already)");
            } else if (op.equals("start") || op.equals("stop") || op.equals("status")) {
                status = 405;
                text = "use POST /intervals/start, POST /intervals/stop, GET /intervals/status";
            } else {
                status = 404;
                text = "unknown: /intervals/" + op
                        + " (use POST /intervals/start, POST /intervals/stop, GET /intervals/status)";
            }
            byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static void timeline(HttpExchange exchange) throws IOException {
        try (exchange) {
            int status = 200;
            String text;
            String query = exchange.getRequestURI().getRawQuery();
            long since = 0;
            String bad = null;
            if (query != null && !query.isEmpty()) {
                if (query.startsWith("since=")) {
                    try {
                        since = Long.parseLong(query.substring("since=".length()));
                    } catch (NumberFormatException e) {
                        bad = query;
                    }
                } else {
                    bad = query;
                }
            }
            if (!"GET".equals(exchange.getRequestMethod())) {
                status = 405;
                text = "use GET /timeline?since=N";
            } else if (bad != null || since < 0) {
                status = 400;
                text = "bad query '" + (bad == null ? query : bad) + "': use GET /timeline?since=N, N >= 0";
            } else {
                text = SchedulerGateway.timelineText(since);
                if (text == null) {
                    status = 409;
                    text = "no scheduler is installed";
                }
            }
            byte[] body = (text.endsWith("\n") ? text : text + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static void serve(HttpExchange exchange, AgentRuntime runtime) throws IOException {
        try (exchange) {
            if (!"GET".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            String text = runtime == null ? "" : SchedulerGateway.metricsText();
            if (!text.isEmpty() && !text.endsWith("\n")) {
                text += "\n";
            }
            Profiling profiling = Profiling.current();
            String agent = (runtime == null ? "" : runtime.agentMetrics()) + (profiling == null ? "" : profiling.metricsText());
            byte[] body = (text + agent).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
