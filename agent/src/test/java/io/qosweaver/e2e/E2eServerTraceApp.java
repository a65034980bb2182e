package io.qosweaver.e2e;

import io.qosweaver.api.Trace;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A Jetty 12 server (core handler) on plain HTTP and on HTTPS with the key store given as
 * {@code args[0]} (password {@code args[1]}), both closing connections idle for 1 s; every request
 * reports user events through the Java API ({@code handled}, a {@code respond} span) and runs
 * {@link #work()}, which the test's policy file names in {@code trace.events}.
 */
public final class E2eServerTraceApp {
    private E2eServerTraceApp() {}

    /** The policy file's task class names it; never called. */
    static void never() {}

    static int work() {
        int s = 0;
        for (int i = 0; i < 10_000; i++) {
            s += Integer.toString(i).hashCode();
        }
        return s;
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector http = new ServerConnector(server);
        http.setHost("127.0.0.1");
        http.setPort(0);
        http.setIdleTimeout(1_000);
        SslContextFactory.Server tls = new SslContextFactory.Server();
        tls.setKeyStorePath(args[0]);
        tls.setKeyStorePassword(args[1]);
        ServerConnector https = new ServerConnector(server, new SslConnectionFactory(tls, "http/1.1"),
                new HttpConnectionFactory(new HttpConfiguration()));
        https.setHost("127.0.0.1");
        https.setPort(0);
        https.setIdleTimeout(1_000);
        server.addConnector(http);
        server.addConnector(https);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Trace.event("handled");
                int s;
                try (Trace.Span span = Trace.span("respond")) {
                    s = work();
                }
                response.write(true, ByteBuffer.wrap(("ok " + s).getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
        System.out.println("PORTS http=" + http.getLocalPort() + " https=" + https.getLocalPort());
        System.out.flush();
        server.join();
    }
}
