package io.qosweaver.peers;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A real Jetty 12 ee10 server: {@code /chart} holds each request until the test releases it (one permit
 * each), {@code /fast} answers at once, {@code /boom} throws. Every request entering a servlet is recorded.
 */
final class TestApp implements AutoCloseable {

    final Server server = new Server();
    final ServerConnector connector = new ServerConnector(server);
    final ServletContextHandler context = new ServletContextHandler();
    final Semaphore chartRelease = new Semaphore(0);
    final List<String> entered = new CopyOnWriteArrayList<>();
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger maxRunning = new AtomicInteger();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    TestApp() {
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new Recording("chart", true)), "/chart");
        context.addServlet(new ServletHolder(new Recording("fast", false)), "/fast");
        context.addServlet(new ServletHolder(new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
                entered.add("boom");
                throw new IllegalStateException("boom");
            }
        }), "/boom");
    }

    /** Starts the server with {@code handler} (the context, or something around it). */
    TestApp start(Handler handler) throws Exception {
        server.setHandler(handler);
        server.start();
        return this;
    }

    CompletableFuture<HttpResponse<String>> get(String path) {
        return http.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + connector.getLocalPort() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> getNow(String path) throws Exception {
        return get(path).get(30, TimeUnit.SECONDS);
    }

    long count(String name) {
        return entered.stream().filter(name::equals).count();
    }

    @Override
    public void close() {
        chartRelease.release(10_000);
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private final class Recording extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private final String name;
        private final boolean hold;

        Recording(String name, boolean hold) {
            this.name = name;
            this.hold = hold;
        }

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            entered.add(name);
            try {
                if (hold && !chartRelease.tryAcquire(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                running.decrementAndGet();
            }
            resp.setContentType("text/plain");
            resp.getWriter().print(name);
        }
    }
}
