package io.qosweaver.e2e;

/**
 * Jetty 9.4, 10 or 11 (whichever the class path holds) with its {@code DefaultHandler} only, built
 * by reflection so that one test class serves the three versions: every request reaches
 * {@code Server.handle(HttpChannel)} and is answered 404 by the handler.
 */
public final class E2eJettyChannelApp {
    private E2eJettyChannelApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> serverType = Class.forName("org.eclipse.jetty.server.Server");
        Object server = serverType.getConstructor().newInstance();
        Class<?> connectorType = Class.forName("org.eclipse.jetty.server.ServerConnector");
        Object connector = connectorType.getConstructor(serverType).newInstance(server);
        connectorType.getMethod("setHost", String.class).invoke(connector, "127.0.0.1");
        connectorType.getMethod("setPort", int.class).invoke(connector, 0);
        serverType.getMethod("addConnector", Class.forName("org.eclipse.jetty.server.Connector")).invoke(server, connector);
        Object handler = Class.forName("org.eclipse.jetty.server.handler.DefaultHandler").getConstructor().newInstance();
        serverType.getMethod("setHandler", Class.forName("org.eclipse.jetty.server.Handler")).invoke(server, handler);
        serverType.getMethod("start").invoke(server);
        System.out.println("PORT=" + connectorType.getMethod("getLocalPort").invoke(connector)
                + " VERSION=" + serverType.getMethod("getVersion").invoke(null));
        System.out.flush();
        serverType.getMethod("join").invoke(server);
    }
}
