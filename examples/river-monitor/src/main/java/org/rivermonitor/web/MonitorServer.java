package org.rivermonitor.web;

import jakarta.servlet.http.HttpServlet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** The public web server: one servlet per page. */
public final class MonitorServer implements AutoCloseable {

    private final Server server;
    private final ServerConnector connector;

    public MonitorServer(String host, int port, Map<String, HttpServlet> servlets) {
        server = new Server();
        connector = new ServerConnector(server);
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        for (Map.Entry<String, HttpServlet> e : servlets.entrySet()) {
            context.addServlet(new ServletHolder(e.getValue()), e.getKey());
        }
        server.setHandler(context);
    }

    public static Map<String, HttpServlet> servlets() {
        return new LinkedHashMap<>();
    }

    public MonitorServer start() throws Exception {
        server.start();
        return this;
    }

    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
