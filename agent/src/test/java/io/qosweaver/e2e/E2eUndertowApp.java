package io.qosweaver.e2e;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import java.net.InetSocketAddress;

/**
 * A small Undertow 2 app with no servlet, run in a child JVM whose class path holds Undertow only:
 * /work/* is a blocking handler dispatched to a worker thread (the heavy request), /io answers on
 * the IO thread.
 */
public final class E2eUndertowApp {
    private E2eUndertowApp() {}

    public static void main(String[] args) {
        HttpHandler handler = new HttpHandler() {
            @Override
            public void handleRequest(HttpServerExchange exchange) {
                if (exchange.getRequestPath().startsWith("/work")) {
                    if (exchange.isInIoThread()) {
                        exchange.dispatch(this);
                        return;
                    }
                    exchange.getResponseSender().send("undertow " + E2eWork.work());
                } else {
                    exchange.getResponseSender().send("io");
                }
            }
        };
        Undertow server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(handler).build();
        server.start();
        int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
        System.out.println("PORT=" + port);
        System.out.flush();
    }
}
