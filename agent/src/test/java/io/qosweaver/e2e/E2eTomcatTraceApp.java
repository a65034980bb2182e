package io.qosweaver.e2e;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/** An embedded Tomcat on plain HTTP (NIO) closing connections idle for 1 s, for the trace's server level. */
public final class E2eTomcatTraceApp {
    private E2eTomcatTraceApp() {}

    public static final class OkServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            resp.setContentType("text/plain");
            resp.getWriter().print("ok");
        }
    }

    public static void main(String[] args) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("e2e-tomcat-trace").toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("keepAliveTimeout", "1000");
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "ok", new OkServlet());
        context.addServletMappingDecoded("/ok", "ok");
        tomcat.start();
        System.out.println("PORTS http=" + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }
}
