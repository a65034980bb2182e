package io.qosweaver.e2e;

import java.nio.file.Files;

/**
 * Embedded Tomcat 9, 10 or 11 (whichever the class path holds) with one empty context, built by
 * reflection so that one test class serves the three versions (9 is {@code javax}, 10 and 11
 * {@code jakarta}): every request reaches {@code CoyoteAdapter.service} and ends in the mapper's 404.
 */
public final class E2eTomcatAnyApp {
    private E2eTomcatAnyApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> tomcatType = Class.forName("org.apache.catalina.startup.Tomcat");
        Object tomcat = tomcatType.getConstructor().newInstance();
        tomcatType.getMethod("setBaseDir", String.class).invoke(tomcat, Files.createTempDirectory("e2e-tomcat").toString());
        Class<?> connectorType = Class.forName("org.apache.catalina.connector.Connector");
        Object connector = connectorType.getConstructor().newInstance();
        connectorType.getMethod("setPort", int.class).invoke(connector, 0);
        connectorType.getMethod("setProperty", String.class, String.class).invoke(connector, "address", "127.0.0.1");
        tomcatType.getMethod("setConnector", connectorType).invoke(tomcat, connector);
        tomcatType.getMethod("addContext", String.class, String.class).invoke(tomcat, "", null);
        tomcatType.getMethod("start").invoke(tomcat);
        System.out.println("PORT=" + connectorType.getMethod("getLocalPort").invoke(connector) + " VERSION="
                + Class.forName("org.apache.catalina.util.ServerInfo").getMethod("getServerNumber").invoke(null));
        System.out.flush();
        Object server = tomcatType.getMethod("getServer").invoke(tomcat);
        server.getClass().getMethod("await").invoke(server);
    }
}
