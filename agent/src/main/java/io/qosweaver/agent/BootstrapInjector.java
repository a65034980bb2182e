package io.qosweaver.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;

/**
 * Puts the scheduler, and the agent's own bootstrap helpers ({@code io.qosweaver.agent.bootstrap}),
 * on the bootstrap class path, so that advice woven into a class of any loader (a web app's, the
 * JDK's) resolves them, and every loader sees the same single copy.
 *
 * <p>The scheduler jar travels inside the agent jar as the resource
 * {@value #SCHEDULER_JAR}, not as classes: the agent jar is on the system class path, so classes
 * in it could be loaded a second time there. The bootstrap helpers are classes of the agent jar;
 * they are copied into a small jar appended before anything links them, and from then on
 * parent-first delegation resolves them from the bootstrap loader.
 */
final class BootstrapInjector {
    static final String SCHEDULER_JAR = "META-INF/qosweaver/qosweaver-scheduler.jar";
    static final String PLATFORM_JAR = "META-INF/qosweaver/qosweaver-platform.jar";
    private static final String HELPERS = "io/qosweaver/agent/bootstrap/";

    private BootstrapInjector() {}

    static void inject(Instrumentation inst, AgentLog log) throws IOException, URISyntaxException {
        if (onBootstrap("io.qosweaver.scheduler.QoS")) {
            return; // attached a second time
        }
        Path scheduler = extract(SCHEDULER_JAR);
        inst.appendToBootstrapClassLoaderSearch(new JarFile(extract(PLATFORM_JAR).toFile()));
        inst.appendToBootstrapClassLoaderSearch(new JarFile(scheduler.toFile()));

        Path agentJar = Path.of(BootstrapInjector.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path helpers = Files.createTempFile("qosweaver-bootstrap-", ".jar");
        helpers.toFile().deleteOnExit();
        int copied = 0;
        try (JarFile agent = new JarFile(agentJar.toFile());
                OutputStream out = Files.newOutputStream(helpers);
                JarOutputStream jar = new JarOutputStream(out)) {
            for (Enumeration<JarEntry> e = agent.entries(); e.hasMoreElements(); ) {
                JarEntry entry = e.nextElement();
                if (entry.getName().startsWith(HELPERS) && entry.getName().endsWith(".class")) {
                    jar.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream in = agent.getInputStream(entry)) {
                        in.transferTo(jar);
                    }
                    jar.closeEntry();
                    copied++;
                }
            }
        }
        if (copied == 0) {
            throw new IOException("no bootstrap helper classes in " + agentJar);
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(helpers.toFile()));
        log.debug("bootstrap class path += " + scheduler + ", " + helpers);
    }

    private static Path extract(String resource) throws IOException {
        Path jar = Files.createTempFile("qosweaver-", ".jar");
        jar.toFile().deleteOnExit();
        try (InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException(resource + " is missing from the agent jar (a broken build)");
            }
            Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
        }
        return jar;
    }

    private static boolean onBootstrap(String name) {
        try {
            Class.forName(name, false, null);
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
