package io.qosweaver.agent.control;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The agent's HTTP control plane, on the loopback interface only: one small JDK server whose
 * routes ({@link Routes}) the runtime or the profiling session gives it. Nothing here knows the
 * scheduler or the profiler; handlers get what they serve as functions.
 *
 * <p>The JDK server's dispatcher thread inherits daemon status from the thread that calls
 * {@code start()}, so it is started from a daemon thread: the endpoint must never keep the
 * application's JVM alive.
 */
public final class ControlServer {
    private final HttpServer server;

    private ControlServer(HttpServer server) {
        this.server = server;
    }

    public void stop() {
        server.stop(0);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Serves {@code routes} (path prefix to handler) on 127.0.0.1:{@code port} (0: a free port). */
    public static ControlServer start(int port, Map<String, HttpHandler> routes) throws IOException, InterruptedException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 16);
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "qosweaver-metrics");
            t.setDaemon(true);
            return t;
        }));
        routes.forEach(server::createContext);
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
        return new ControlServer(server);
    }
}
