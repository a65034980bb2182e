package io.qosweaver.e2e;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
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
 * A Jetty 12 server speaking HTTP/2: h2c (cleartext, prior knowledge), HTTP/1.1 upgraded to h2c
 * ({@code Upgrade: h2c}, its port printed as {@code UPGRADE port=}) and, with a key store
 * and its password as arguments, h2 over TLS (negotiated by ALPN); closing connections idle for 1 s; every request takes {@link #SERVICE_MS} in its handler, so that the streams a
 * client sends together are served at once, on several threads.
 */
public final class E2eHttp2TraceApp {
    static final long SERVICE_MS = 200;

    private E2eHttp2TraceApp() {}

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector h2c = new ServerConnector(server, new HTTP2CServerConnectionFactory(new HttpConfiguration()));
        h2c.setHost("127.0.0.1");
        h2c.setPort(0);
        h2c.setIdleTimeout(1_000);
        server.addConnector(h2c);
        // HTTP/1.1 upgraded to HTTP/2 by Upgrade: h2c
        ServerConnector upgrade = new ServerConnector(server, new HttpConnectionFactory(new HttpConfiguration()),
                new HTTP2CServerConnectionFactory(new HttpConfiguration()));
        upgrade.setHost("127.0.0.1");
        upgrade.setPort(0);
        upgrade.setIdleTimeout(1_000);
        server.addConnector(upgrade);
        ServerConnector h2 = null;
        if (args.length == 2) {
            SslContextFactory.Server tls = new SslContextFactory.Server();
            tls.setKeyStorePath(args[0]);
            tls.setKeyStorePassword(args[1]);
            ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory("h2");
            h2 = new ServerConnector(server, new SslConnectionFactory(tls, alpn.getProtocol()), alpn,
                    new HTTP2ServerConnectionFactory(new HttpConfiguration()));
            h2.setHost("127.0.0.1");
            h2.setPort(0);
            h2.setIdleTimeout(1_000);
            server.addConnector(h2);
        }
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                Thread.sleep(SERVICE_MS);
                response.write(true, ByteBuffer.wrap(("ok " + request.getId()).getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
        System.out.println("UPGRADE port=" + upgrade.getLocalPort());
        System.out.println("PORTS http=" + h2c.getLocalPort() + (h2 == null ? "" : " https=" + h2.getLocalPort()));
        System.out.flush();
        server.join();
    }
}
