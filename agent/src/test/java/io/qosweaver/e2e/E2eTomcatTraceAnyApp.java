package io.qosweaver.e2e;

import java.nio.file.Files;

/**
 * Embedded Tomcat 9, 10 or 11 (whichever the class path holds) on plain HTTP and HTTPS (NIO, or
 * the protocol handler named by a third argument, with JSSE; a key store and its password as the
 * first two), closing connections idle for 1 s, with one
 * empty context: built by reflection so that it runs on Tomcat 9's {@code javax} as on the later
 * {@code jakarta}; every request ends in the mapper's 404. A fourth argument, {@code h2}, adds
 * HTTP/2 to both connectors ({@code Http2Protocol}, closing connections idle for 1 s).
 */
public final class E2eTomcatTraceAnyApp {
    private E2eTomcatTraceAnyApp() {}

    public static void main(String[] args) throws Exception {
        Class<?> tomcatType = Class.forName("org.apache.catalina.startup.Tomcat");
        Object tomcat = tomcatType.getConstructor().newInstance();
        tomcatType.getMethod("setBaseDir", String.class).invoke(tomcat, Files.createTempDirectory("e2e-tomcat").toString());
        Class<?> connectorType = Class.forName("org.apache.catalina.connector.Connector");
        // args[2]: the protocol handler (Http11Nio2Protocol for NIO2), else Tomcat's default (NIO)
        String protocol = args.length > 2 ? args[2] : "HTTP/1.1";
        Object http = connectorType.getConstructor(String.class).newInstance(protocol);
        Object https = connectorType.getConstructor(String.class).newInstance(protocol);
        for (Object c : new Object[] {http, https}) {
            connectorType.getMethod("setPort", int.class).invoke(c, 0);
            connectorType.getMethod("setProperty", String.class, String.class).invoke(c, "address", "127.0.0.1");
            connectorType.getMethod("setProperty", String.class, String.class).invoke(c, "keepAliveTimeout", "1000");
        }
        if (args.length > 3 && args[3].equals("h2")) {
            Class<?> h2Type = Class.forName("org.apache.coyote.http2.Http2Protocol");
            Class<?> upgradeType = Class.forName("org.apache.coyote.UpgradeProtocol");
            for (Object c : new Object[] {http, https}) {
                Object h2 = h2Type.getConstructor().newInstance();
                h2Type.getMethod("setKeepAliveTimeout", long.class).invoke(h2, 1000L);
                connectorType.getMethod("addUpgradeProtocol", upgradeType).invoke(c, h2);
            }
        }
        connectorType.getMethod("setSecure", boolean.class).invoke(https, true);
        connectorType.getMethod("setScheme", String.class).invoke(https, "https");
        connectorType.getMethod("setProperty", String.class, String.class).invoke(https, "SSLEnabled", "true");
        connectorType.getMethod("setProperty", String.class, String.class).invoke(https, "sslImplementationName",
                "org.apache.tomcat.util.net.jsse.JSSEImplementation");
        Class<?> hostType = Class.forName("org.apache.tomcat.util.net.SSLHostConfig");
        Class<?> certType = Class.forName("org.apache.tomcat.util.net.SSLHostConfigCertificate");
        Class<?> kindType = Class.forName("org.apache.tomcat.util.net.SSLHostConfigCertificate$Type");
        Object host = hostType.getConstructor().newInstance();
        Object undefined = kindType.getField("UNDEFINED").get(null);
        Object cert = certType.getConstructor(hostType, kindType).newInstance(host, undefined);
        certType.getMethod("setCertificateKeystoreFile", String.class).invoke(cert, args[0]);
        certType.getMethod("setCertificateKeystorePassword", String.class).invoke(cert, args[1]);
        certType.getMethod("setCertificateKeystoreType", String.class).invoke(cert, "PKCS12");
        certType.getMethod("setCertificateKeyAlias", String.class).invoke(cert, "server");
        hostType.getMethod("addCertificate", certType).invoke(host, cert);
        connectorType.getMethod("addSslHostConfig", hostType).invoke(https, host);
        tomcatType.getMethod("setConnector", connectorType).invoke(tomcat, http);
        Object service = tomcatType.getMethod("getService").invoke(tomcat);
        service.getClass().getMethod("addConnector", connectorType).invoke(service, https);
        tomcatType.getMethod("addContext", String.class, String.class).invoke(tomcat, "", null);
        tomcatType.getMethod("start").invoke(tomcat);
        System.out.println("PORTS http=" + connectorType.getMethod("getLocalPort").invoke(http)
                + " https=" + connectorType.getMethod("getLocalPort").invoke(https) + " VERSION="
                + Class.forName("org.apache.catalina.util.ServerInfo").getMethod("getServerNumber").invoke(null)
                + " PROTOCOL=" + connectorType.getMethod("getProtocolHandlerClassName").invoke(http));
        System.out.flush();
        Object server = tomcatType.getMethod("getServer").invoke(tomcat);
        server.getClass().getMethod("await").invoke(server);
    }
}
