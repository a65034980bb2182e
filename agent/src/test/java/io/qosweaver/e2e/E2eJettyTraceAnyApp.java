package io.qosweaver.e2e;

import java.lang.reflect.Constructor;

/**
 * Jetty 9.4, 10 or 11 (whichever the class path holds) on plain HTTP and HTTPS (a key store and
 * its password as arguments), closing connections idle for 1 s, for the trace's server level.
 * Built by reflection so that one test class serves the three versions; only the
 * {@code DefaultHandler}, so every request is answered 404.
 */
public final class E2eJettyTraceAnyApp {
    private E2eJettyTraceAnyApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> serverType = Class.forName("org.eclipse.jetty.server.Server");
        Object server = serverType.getConstructor().newInstance();
        Class<?> connectorType = Class.forName("org.eclipse.jetty.server.ServerConnector");
        Class<?> connectorApi = Class.forName("org.eclipse.jetty.server.Connector");
        Object http = connectorType.getConstructor(serverType).newInstance(server);

        Class<?> tlsType = Class.forName("org.eclipse.jetty.util.ssl.SslContextFactory$Server");
        Object tls = tlsType.getConstructor().newInstance();
        tlsType.getMethod("setKeyStorePath", String.class).invoke(tls, args[0]);
        tlsType.getMethod("setKeyStorePassword", String.class).invoke(tls, args[1]);
        tlsType.getMethod("setKeyStoreType", String.class).invoke(tls, "PKCS12");
        Object https = null;
        for (Constructor<?> k : connectorType.getConstructors()) {
            if (k.getParameterCount() == 2 && k.getParameterTypes()[0] == serverType
                    && k.getParameterTypes()[1].isAssignableFrom(tlsType)) {
                https = k.newInstance(server, tls);
            }
        }
        if (https == null) {
            throw new IllegalStateException("no ServerConnector(Server, SslContextFactory)");
        }
        for (Object c : new Object[] {http, https}) {
            connectorType.getMethod("setHost", String.class).invoke(c, "127.0.0.1");
            connectorType.getMethod("setPort", int.class).invoke(c, 0);
            connectorType.getMethod("setIdleTimeout", long.class).invoke(c, 1_000L);
            serverType.getMethod("addConnector", connectorApi).invoke(server, c);
        }
        Object handler = Class.forName("org.eclipse.jetty.server.handler.DefaultHandler").getConstructor().newInstance();
        serverType.getMethod("setHandler", Class.forName("org.eclipse.jetty.server.Handler")).invoke(server, handler);
        serverType.getMethod("start").invoke(server);
        System.out.println("PORTS http=" + connectorType.getMethod("getLocalPort").invoke(http)
                + " https=" + connectorType.getMethod("getLocalPort").invoke(https)
                + " VERSION=" + serverType.getMethod("getVersion").invoke(null));
        System.out.flush();
        serverType.getMethod("join").invoke(server);
    }
}
