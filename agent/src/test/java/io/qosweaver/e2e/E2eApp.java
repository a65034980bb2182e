package io.qosweaver.e2e;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * A small real Jetty 12 ee10 app that AgentIT runs in a child JVM under -javaagent. It knows
 * nothing of QoSWeaver: /work is the heavy request (a loop of step calls), /light the cheap one,
 * and a collector thread calls collect() periodically.
 */
public final class E2eApp {
    private E2eApp() {}

    public static int step(int x) {
        return x * 31 + 7;
    }

    public static void collect() {
        int s = 0;
        for (int i = 0; i < 1000; i++) {
            s = step(s);
        }
        if (s == 42) {
            System.out.println("unlikely");
        }
    }

    public static final class WorkServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            int s = 0;
            for (int i = 0; i < 100; i++) {
                s = step(s);
            }
            resp.setContentType("text/plain");
            resp.getWriter().print("work " + s);
        }
    }

    public static final class LightServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("light");
        }
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(WorkServlet.class, "/work");
        context.addServlet(LightServlet.class, "/light");
        server.setHandler(context);
        server.start();
        Thread collector = new Thread(() -> {
            while (true) {
                collect();
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "collector");
        collector.setDaemon(true);
        collector.start();
        System.out.println("PORT=" + connector.getLocalPort());
        System.out.flush();
        server.join();
    }
}
