package io.qosweaver.e2e;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/**
 * An embedded Tomcat on plain HTTP (NIO) closing connections idle for 1 s, for the trace's server
 * level; with a key store and its password as arguments, also on HTTPS (JSSE); a third argument
 * names the protocol handler of both (NIO2: {@code org.apache.coyote.http11.Http11Nio2Protocol});
 * a fourth, {@code h2}, adds HTTP/2 to both ({@code Http2Protocol}: h2c by upgrade or prior
 * knowledge, h2 over TLS by ALPN), closing HTTP/2 connections idle for 1 s. /slow takes
 * {@link E2eHttp2TraceApp#SERVICE_MS} in its servlet.
 */
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

    public static final class SlowServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
            try {
                Thread.sleep(E2eHttp2TraceApp.SERVICE_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            resp.setContentType("text/plain");
            resp.getWriter().print("slow");
        }
    }

    private static Http2Protocol http2() {
        Http2Protocol h2 = new Http2Protocol();
        h2.setKeepAliveTimeout(1000);
        return h2;
    }

    public static void main(String[] args) throws Exception {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("e2e-tomcat-trace").toString());
        // args[2]: the protocol handler (Http11Nio2Protocol for NIO2), else Tomcat's default (NIO)
        String protocol = args.length > 2 ? args[2] : "HTTP/1.1";
        Connector connector = new Connector(protocol);
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("keepAliveTimeout", "1000");
        boolean h2 = args.length > 3 && args[3].equals("h2");
        if (h2) {
            connector.addUpgradeProtocol(http2());
        }
        tomcat.setConnector(connector);
        Context context = tomcat.addContext("", null);
        Tomcat.addServlet(context, "ok", new OkServlet());
        context.addServletMappingDecoded("/ok", "ok");
        Tomcat.addServlet(context, "slow", new SlowServlet());
        context.addServletMappingDecoded("/slow", "slow");
        Connector https = null;
        if (args.length >= 2) {
            https = new Connector(protocol);
            https.setPort(0);
            https.setProperty("address", "127.0.0.1");
            https.setProperty("keepAliveTimeout", "1000");
            https.setSecure(true);
            https.setScheme("https");
            https.setProperty("SSLEnabled", "true");
            https.setProperty("sslImplementationName", "org.apache.tomcat.util.net.jsse.JSSEImplementation");
            SSLHostConfig host = new SSLHostConfig();
            SSLHostConfigCertificate cert = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
            cert.setCertificateKeystoreFile(args[0]);
            cert.setCertificateKeystorePassword(args[1]);
            cert.setCertificateKeystoreType("PKCS12");
            cert.setCertificateKeyAlias("server");
            host.addCertificate(cert);
            https.addSslHostConfig(host);
            if (h2) {
                https.addUpgradeProtocol(http2());
            }
            tomcat.getService().addConnector(https);
        }
        tomcat.start();
        System.out.println("PORTS http=" + connector.getLocalPort() + (https == null ? "" : " https=" + https.getLocalPort())
                + " VERSION=" + org.apache.catalina.util.ServerInfo.getServerNumber()
                + " PROTOCOL=" + connector.getProtocolHandlerClassName());
        System.out.flush();
        tomcat.getServer().await();
    }
}
