package io.qosweaver.e2e;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * A small embedded Tomcat app for the Coyote integration, run in a child JVM whose class path holds
 * Tomcat only (no Jetty): /work is the heavy servlet, and nothing is mapped under /nothing, so those
 * requests end in the mapper's 404 without any servlet.
 */
public final class E2eTomcatApp {
    private E2eTomcatApp() {}

    public static final class WorkServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("work " + E2eWork.work());
        }
    }

    /**
     * Starts the request asynchronously and dispatches it to /work from a thread of the
     * container's: the request resumes through {@code CoyoteAdapter.asyncDispatch}.
     */
    public static final class AsyncServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) {
            jakarta.servlet.AsyncContext ac = req.startAsync();
            ac.start(() -> ac.dispatch("/work"));
        }
    }

    public static void main(String[] args) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("e2e-tomcat").toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "work", new WorkServlet());
        context.addServletMappingDecoded("/work", "work");
        org.apache.catalina.Wrapper async = Tomcat.addServlet(context, "async", new AsyncServlet());
        async.setAsyncSupported(true);
        context.addServletMappingDecoded("/async", "async");
        tomcat.start();
        System.out.println("PORT=" + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }
}
