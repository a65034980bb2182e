package io.qosweaver.e2e;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.io.FileInputStream;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * Undertow 2 on plain HTTP and HTTPS (a key store and its password as arguments), closing
 * connections idle for 1 s, for the trace's server level: /io answers on the IO thread, /work is
 * dispatched to a worker thread (a blocking handler), as most applications do. HTTP/2 is enabled:
 * the TLS listener negotiates the protocol by ALPN (HTTP/1.1 or h2 as the client asks), the plain
 * one upgrades a request with {@code Upgrade: h2c}.
 */
public final class E2eUndertowTraceApp {
    private E2eUndertowTraceApp() {}

    public static void main(String[] args) throws Exception {
        HttpHandler handler = new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) throws Exception {
                if (exchange.getRequestPath().startsWith("/work")) {
                    if (exchange.isInIoThread()) {
                        exchange.dispatch(this);
                        return;
                    }
                    Thread.sleep(20);
                    exchange.getResponseSender().send("work " + E2eWork.work());
                } else {
                    exchange.getResponseSender().send("io");
                }
            }
        };
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(args[0])) {
            store.load(in, args[1].toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(store, args[1].toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        Undertow server = Undertow.builder().addHttpListener(0, "127.0.0.1").addHttpsListener(0, "127.0.0.1", ssl)
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, 1000).setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                .setHandler(handler).build();
        server.start();
        int http = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
        int https = ((InetSocketAddress) server.getListenerInfo().get(1).getAddress()).getPort();
        System.out.println("PORTS http=" + http + " https=" + https);
        System.out.flush();
    }
}
