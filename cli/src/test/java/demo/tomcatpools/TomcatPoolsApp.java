package demo.tomcatpools;

import java.nio.file.Files;

/**
 * An embedded Tomcat with a connector of its own pool sizes (min spare 4, max 30 threads) and an
 * empty context (every request ends in Tomcat's 404), run in a child JVM whose class path holds
 * Tomcat's jars and these test classes only. Built by reflection, so that this module's test
 * sources need no Tomcat to compile and the same class runs Tomcat 9 (javax) to 11 (jakarta).
 * Prints {@code PORT=N VERSION=V} (Tomcat's own server number) once it listens.
 */
public final class TomcatPoolsApp {
    private TomcatPoolsApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> tomcatClass = Class.forName("org.apache.catalina.startup.Tomcat");
        Class<?> connectorClass = Class.forName("org.apache.catalina.connector.Connector");
        Object tomcat = tomcatClass.getConstructor().newInstance();
        tomcatClass.getMethod("setBaseDir", String.class).invoke(tomcat,
                Files.createTempDirectory("tomcat-pools").toString());
        Object connector = connectorClass.getConstructor().newInstance();
        connectorClass.getMethod("setPort", int.class).invoke(connector, 0);
        var setProperty = connectorClass.getMethod("setProperty", String.class, String.class);
        setProperty.invoke(connector, "address", "127.0.0.1");
        setProperty.invoke(connector, "maxThreads", "30");
        setProperty.invoke(connector, "minSpareThreads", "4");
        tomcatClass.getMethod("setConnector", connectorClass).invoke(tomcat, connector);
        tomcatClass.getMethod("addContext", String.class, String.class).invoke(tomcat, "", null);
        tomcatClass.getMethod("start").invoke(tomcat);
        System.out.println("PORT=" + connectorClass.getMethod("getLocalPort").invoke(connector) + " VERSION="
                + Class.forName("org.apache.catalina.util.ServerInfo").getMethod("getServerNumber").invoke(null));
        System.out.flush();
        Object server = tomcatClass.getMethod("getServer").invoke(tomcat);
        server.getClass().getMethod("await").invoke(server);
    }
}
