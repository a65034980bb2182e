package io.qosweaver.agent.control;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The control plane's handlers, each given what it serves as a function. Switches take POST, so
 * that a crawler or a prefetching browser cannot flip them; reads take GET.
 */
public final class Routes {
    static final String TEXT = "text/plain; charset=utf-8";
    /** Prometheus text exposition format. */
    static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    private Routes() {}

    /** {@code GET /metrics}: Prometheus text, the concatenation of what {@code text} gives. */
    public static HttpHandler metrics(Supplier<String> text) {
        return exchange -> {
            try (exchange) {
                if (!"GET".equals(exchange.getRequestMethod())) {
                    exchange.sendResponseHeaders(405, -1);
                    return;
                }
                send(exchange, 200, PROMETHEUS, text.get());
            }
        };
    }

    /**
     * {@code POST BASE/start}, {@code POST BASE/stop}, {@code GET BASE/status}: one line of text.
     *
     * @param base the route's prefix, e.g. {@code /profile/}
     * @param target the switch, or null when there is none ({@code absent} says why, with 409)
     */
    public static HttpHandler onOff(String base, Supplier<Switch> target, String absent) {
        String usage = "use POST " + base + "start, POST " + base + "stop, GET " + base + "status";
        return exchange -> {
            try (exchange) {
                String op = exchange.getRequestURI().getPath().substring(base.length());
                String method = exchange.getRequestMethod();
                Switch s = target.get();
                boolean known = op.equals("start") || op.equals("stop") || op.equals("status");
                if (s == null) {
                    send(exchange, 409, TEXT, absent);
                } else if (op.equals("status") && method.equals("GET")) {
                    send(exchange, 200, TEXT, s.status());
                } else if ((op.equals("start") || op.equals("stop")) && method.equals("POST")) {
                    send(exchange, 200, TEXT, op.equals("start") ? s.start() : s.stop());
                } else if (known) {
                    send(exchange, 405, TEXT, usage);
                } else {
                    send(exchange, 404, TEXT, "unknown: " + base + op + " (" + usage + ")");
                }
            }
        };
    }

    /**
     * {@code GET /timeline?since=N}: the scheduler's running-threads timeline from sequence number N
     * ({@code timeline} answers null when no scheduler is installed: 409).
     */
    public static HttpHandler timeline(LongFunction<String> timeline) {
        return exchange -> {
            try (exchange) {
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
                    send(exchange, 405, TEXT, "use GET /timeline?since=N");
                } else if (bad != null || since < 0) {
                    send(exchange, 400, TEXT, "bad query '" + (bad == null ? query : bad) + "': use GET /timeline?since=N, N >= 0");
                } else {
                    String text = timeline.apply(since);
                    if (text == null) {
                        send(exchange, 409, TEXT, "no scheduler is installed");
                    } else {
                        send(exchange, 200, TEXT, text);
                    }
                }
            }
        };
    }

    /**
     * {@code GET PATH}: a number setting; {@code POST PATH?NAME=N} (N a non-negative integer) sets it
     * and answers the new value. What {@code set} refuses ({@link IllegalArgumentException}) is a
     * 409 with its message; anything else a 400 with the usage.
     */
    public static HttpHandler setting(String path, String name, LongSupplier get, LongConsumer set) {
        String usage = "use GET " + path + " or POST " + path + "?" + name + "=N";
        return exchange -> {
            try (exchange) {
                String query = exchange.getRequestURI().getRawQuery();
                String method = exchange.getRequestMethod();
                if (method.equals("GET") && query == null) {
                    send(exchange, 200, TEXT, Long.toString(get.getAsLong()));
                } else if (method.equals("POST") && query != null && query.matches(name + "=[0-9]{1,18}")) {
                    try {
                        set.accept(Long.parseLong(query.substring(name.length() + 1)));
                        send(exchange, 200, TEXT, Long.toString(get.getAsLong()));
                    } catch (IllegalArgumentException e) {
                        send(exchange, 409, TEXT, e.getMessage());
                    }
                } else {
                    send(exchange, 400, TEXT, usage);
                }
            }
        };
    }

    private static void send(HttpExchange exchange, int status, String contentType, String text) throws IOException {
        byte[] body = (text.isEmpty() || text.endsWith("\n") ? text : text + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
