package io.qosweaver.agent.startup;

import io.qosweaver.agent.log.AgentLog;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.jar.JarFile;

/**
 * Puts the scheduler, the platform module and the agent's own bootstrap helpers
 * ({@code io.qosweaver.agent.bootstrap}) on the bootstrap class path, so that advice woven into a
 * class of any loader (a web app's, the JDK's) resolves them, and every loader sees the same single
 * copy.
 *
 * <p>They travel inside the agent jar as one nested jar, {@value #BOOTSTRAP_JAR}, built with the
 * agent (agent/pom.xml), not as classes: the agent jar is on the system class path, so classes in
 * it could be loaded a second time there. One jar means one append: the JVM prints its "Sharing is
 * only supported for boot loader classes because bootstrap classpath has been appended" once per
 * append (CDS then serves only boot-loader classes from its archive), so once.
 */
final class BootstrapInjector {
    static final String BOOTSTRAP_JAR = "META-INF/qosweaver/qosweaver-agent-bootstrap.jar";

    private BootstrapInjector() {}

    static void inject(Instrumentation inst, AgentLog log) throws IOException {
        if (onBootstrap("io.qosweaver.scheduler.QoS")) {
            return; // attached a second time
        }
        Path jar = Files.createTempFile("qosweaver-bootstrap-", ".jar");
        jar.toFile().deleteOnExit();
        try (InputStream in = BootstrapInjector.class.getClassLoader().getResourceAsStream(BOOTSTRAP_JAR)) {
            if (in == null) {
                throw new IOException(BOOTSTRAP_JAR + " is missing from the agent jar (a broken build)");
            }
            Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
        }
        inst.appendToBootstrapClassLoaderSearch(new JarFile(jar.toFile()));
        log.debug("bootstrap class path += " + jar);
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
