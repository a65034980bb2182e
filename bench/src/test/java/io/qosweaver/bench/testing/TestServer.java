package io.qosweaver.bench.testing;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * A tiny embedded Jetty 12 server for tests: each path answers with a {@link Reply} computed
 * from the query string; every request is counted per path.
 */
public final class TestServer implements AutoCloseable {

    /** Status, body, and how long the handler sleeps before answering. */
    public record Reply(int status, String contentType, String body, long sleepMs) {
        public static Reply ok(String body) {
            return new Reply(200, "text/plain", body, 0);
        }
    }

    /** What a request brought: its method, query string, body and content type (null without one). */
    public record Exchange(String method, String query, byte[] body, String contentType) {
    }

    private final Server server;
    private final Map<String, Function<Exchange, Reply>> routes = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    public TestServer() throws Exception {
        server = new Server(new QueuedThreadPool(200, 8));
        ServerConnector c = new ServerConnector(server);
        c.setHost("127.0.0.1");
        c.setPort(0);
        server.addConnector(c);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = request.getHttpURI().getPath();
                counts.computeIfAbsent(path, k -> new AtomicLong()).incrementAndGet();
                Function<Exchange, Reply> route = routes.get(path);
                byte[] body;
                try (java.io.InputStream in = Request.asInputStream(request)) {
                    body = in.readAllBytes();
                }
                Reply r = route == null ? new Reply(404, "text/plain", "no route " + path, 0)
                        : route.apply(new Exchange(request.getMethod(), request.getHttpURI().getQuery(), body,
                                request.getHeaders().get("Content-Type")));
                if (r.sleepMs() > 0) {
                    Thread.sleep(r.sleepMs());
                }
                response.setStatus(r.status());
                response.getHeaders().put("Content-Type", r.contentType());
                response.write(true, ByteBuffer.wrap(r.body().getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
    }

    /** Answers {@code path} from its query string. */
    public TestServer route(String path, Function<String, Reply> handler) {
        routes.put(path, e -> handler.apply(e.query()));
        return this;
    }

    /** Answers {@code path} from the whole request: method, query, body. */
    public TestServer routeExchange(String path, Function<Exchange, Reply> handler) {
        routes.put(path, handler);
        return this;
    }

    public long count(String path) {
        AtomicLong n = counts.get(path);
        return n == null ? 0 : n.get();
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort() + pathAndQuery);
    }

    public int port() {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
