package org.rivermonitor.generator;

import java.time.Clock;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/** The data generator: an HTTP server emulating the gauges of all rivers. */
public final class GeneratorServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    public GeneratorServer(String host, int port, long seed, int rivers) {
        this(host, port, seed, rivers, Clock.systemUTC());
    }

    public GeneratorServer(String host, int port, long seed, int rivers, Clock clock) {
        QueuedThreadPool pool = new QueuedThreadPool(32, 4);
        pool.setName("generator");
        server = new Server(pool);
        connector = new ServerConnector(server, 1, 1);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(new SensorServlet(seed, rivers, clock)), "/sensors/*");
        server.setHandler(context);
    }

    public GeneratorServer start() throws Exception {
        server.start();
        return this;
    }

    public int port() {
        return connector.getLocalPort();
    }

    public String url() {
        return "http://" + hostForUrl(connector.getHost()) + ":" + port();
    }

    static String hostForUrl(String host) {
        if (host == null || host.isEmpty() || host.equals("0.0.0.0")) {
            return "127.0.0.1";
        }
        return host.contains(":") ? "[" + host + "]" : host;
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
