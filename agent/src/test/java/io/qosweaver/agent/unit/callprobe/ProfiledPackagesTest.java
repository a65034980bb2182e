package io.qosweaver.agent.unit.callprobe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.control.ControlServer;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.profiling.ProfilingArgs;
import io.qosweaver.agent.profiling.ProfilingMXBean;
import io.qosweaver.agent.profiling.ProfilingSession;
import io.qosweaver.pointcuts.BinaryProfileWriter;
import io.qosweaver.model.signature.Signatures;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.commons.ClassRemapper;
import net.bytebuddy.jar.asm.commons.Remapper;
import org.junit.jupiter.api.Test;

/** Which packages the profiling mode may weave (ProfiledPackages), and the include= check. */
class ProfiledPackagesTest {

    private static ProfilingArgs parse(String include) {
        return ProfilingArgs.parse("profile=/t/p.qwp,include=" + include);
    }

    @Test
    void jdkPackagesNamedExplicitlyAreAccepted() {
        assertThat(parse("org.jfree+org.rivermonitor+sun.java2d.marlin+com.sun.imageio.plugins.png").include())
                .containsExactly("org.jfree", "org.rivermonitor", "sun.java2d.marlin", "com.sun.imageio.plugins.png");
        for (String ok : List.of("java.awt", "javax.imageio", "sun.java2d", "sun.awt", "sun.font", "com.sun.imageio",
                "java.math", "java.sql", "javax.swing", "javax.servlet", "org.w3c.dom", "jdk.jfr")) {
            assertThat(parse(ok).include()).containsExactly(ok);
        }
    }

    @Test
    void aPrefixThatAlsoCoversDeniedPackagesIsRefusedWithThem() {
        assertThatThrownBy(() -> parse("org.jfree+sun")).hasMessageContaining("include=org.jfree+sun: 'sun' also covers"
                + " sun.misc, sun.reflect, sun.invoke, sun.instrument, sun.nio, sun.net, sun.security, sun.util,"
                + " sun.management, sun.rmi, which are never profiled as callers")
                .hasMessageContaining("include=org.jfree+sun.java2d.marlin+com.sun.imageio.plugins.png");
        assertThatThrownBy(() -> parse("java")).hasMessageContaining("'java' also covers java.lang, java.util, java.io,"
                + " java.nio, java.time, java.net, java.security, java.rmi, which are never profiled");
        assertThatThrownBy(() -> parse("com.sun")).hasMessageContaining(
                "'com.sun' also covers com.sun.jmx, com.sun.management, com.sun.net.httpserver");
        assertThatThrownBy(() -> parse("com")).hasMessageContaining("'com' also covers com.sun.jmx");
        assertThatThrownBy(() -> parse("javax")).hasMessageContaining(
                "'javax' also covers javax.management, javax.net, javax.security");
        assertThatThrownBy(() -> parse("jdk")).hasMessageContaining("'jdk' also covers jdk.internal, which is never");
        assertThatThrownBy(() -> parse("io.qosweaver")).hasMessageContaining("never profiled")
                .hasMessageContaining("io.qosweaver.agent, io.qosweaver.scheduler, io.qosweaver.pointcuts, io.qosweaver.model,"
                        + " io.qosweaver.platform, io.qosweaver.cli");
        assertThatThrownBy(() -> parse("net")).hasMessageContaining("'net' also covers net.bytebuddy");
    }

    @Test
    void aPackageInsideADeniedOneIsRefusedWithTheReason() {
        assertThatThrownBy(() -> parse("java.util.concurrent")).hasMessageContaining(
                "'java.util.concurrent' is in java.util, which is never profiled as a caller: the probe runs it");
        assertThatThrownBy(() -> parse("java.lang.invoke")).hasMessageContaining("is in java.lang,");
        for (String denied : List.of("java.util", "java.lang", "java.io", "java.nio.channels", "java.time.format",
                "java.net", "java.security", "jdk.internal.misc", "sun.nio.ch", "sun.misc", "sun.security.util",
                "sun.reflect", "sun.invoke.util", "sun.util.logging", "sun.instrument", "sun.net.httpserver",
                "javax.management.openmbean", "com.sun.jmx.mbeanserver", "com.sun.net.httpserver", "sun.management",
                "io.qosweaver.agent.bootstrap", "io.qosweaver.scheduler", "net.bytebuddy.agent")) {
            assertThatThrownBy(() -> parse(denied)).as(denied).hasMessageContaining("never profiled as a caller")
                    .hasMessageContaining("recorded anyway");
        }
        // a name that merely starts like a denied one is another package
        assertThat(parse("java.utilities").include()).containsExactly("java.utilities");
        assertThat(parse("sun.nioish").include()).containsExactly("sun.nioish");
    }

    @Test
    void jdkClassesAreProfiledOnlyThroughAnIncludeInTheirNameSpace() {
        assertThat(ProfiledPackages.profiled("org.jfree.chart.JFreeChart", List.of("org"))).isTrue();
        assertThat(ProfiledPackages.profiled("org.w3c.dom.Node", List.of("org"))).isFalse(); // the JDK's, not named
        assertThat(ProfiledPackages.profiled("org.w3c.dom.Node", List.of("org.w3c"))).isTrue();
        assertThat(ProfiledPackages.profiled("sun.java2d.marlin.Renderer", List.of("sun.java2d.marlin"))).isTrue();
        assertThat(ProfiledPackages.profiled("sun.java2d.marlin.Renderer", List.of("sun.java2d"))).isTrue();
        assertThat(ProfiledPackages.profiled("sun.java2d.marlin.stats.Histogram", List.of("sun.java2d.marlin"))).isTrue();
        assertThat(ProfiledPackages.profiled("sun.java2d.marlinx.Renderer", List.of("sun.java2d.marlin"))).isFalse();
        assertThat(ProfiledPackages.profiled("com.sun.imageio.plugins.png.PNGImageWriter",
                List.of("org.jfree", "com.sun.imageio.plugins.png"))).isTrue();
        assertThat(ProfiledPackages.profiled("javax.servlet.http.HttpServlet", List.of("javax.servlet"))).isTrue();
        // denied classes never, whatever the include (parse refuses such includes anyway)
        assertThat(ProfiledPackages.profiled("java.util.ArrayList", List.of("java.util"))).isFalse();
        assertThat(ProfiledPackages.profiled("io.qosweaver.agent.bootstrap.CallProbe", List.of("io"))).isFalse();
        var matcher = new CallProbeUnit(List.of("org.jfree", "sun.java2d.marlin"), new SignatureTable()).types();
        assertThat(matcher.matches(new TypeDescription.Latent("sun.java2d.marlin.Renderer", 0, null))).isTrue();
        assertThat(matcher.matches(new TypeDescription.Latent("sun.java2d.pipe.AAShapePipe", 0, null))).isFalse();
        assertThat(matcher.matches(new TypeDescription.Latent("org.jfree.chart.JFreeChart", 0, null))).isTrue();
    }

    /** The name spaces are complete: every package of every JDK module of this JVM lies in one. */
    @Test
    void everyPackageOfTheJdkIsInAJdkNameSpace() {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        List<String> outside = new ArrayList<>();
        int packages = 0;
        for (Module m : ModuleLayer.boot().modules()) {
            if (m.getClassLoader() != null && m.getClassLoader() != platform) {
                continue;
            }
            for (String p : m.getPackages()) {
                packages++;
                if (ProfiledPackages.jdkNamespace(p) == null) {
                    outside.add(m.getName() + "/" + p);
                }
            }
        }
        assertThat(packages).isGreaterThan(500);
        assertThat(outside).isEmpty();
    }

    /**
     * The deny list is checked against the code: every type that the probe, the recording and its
     * writer, the weaving, the JMX and HTTP control and the log refer to lies in a denied package,
     * so none of them is ever woven with the probe.
     */
    @Test
    void theDenyListCoversEveryTypeTheProbeTheWriterTheWeavingAndTheControlReferTo() throws Exception {
        Set<String> referenced = new TreeSet<>();
        for (Class<?> c : List.of(CallProbe.class, Class.forName("io.qosweaver.agent.profiling.ProfileRecording"), ProfilingSession.class, CallProbeUnit.class,
                ProfiledPackages.class, ProfilingMXBean.class, ControlServer.class, AgentLog.class, BinaryProfileWriter.class,
                Signatures.class)) {
            for (Class<?> k : withNested(c)) {
                referenced.addAll(typesReferencedBy(k));
            }
        }
        assertThat(referenced).contains("java.util.concurrent.ConcurrentLinkedQueue", "java.lang.ThreadLocal",
                "java.nio.file.Files", "javax.management.MBeanServer", "com.sun.net.httpserver.HttpServer");
        List<String> notDenied = referenced.stream().filter(t -> ProfiledPackages.deniedPrefix(t) == null).toList();
        assertThat(notDenied).as("types the profiling code uses, outside the deny list").isEmpty();
    }

    private static List<Class<?>> withNested(Class<?> c) {
        List<Class<?>> out = new ArrayList<>();
        out.add(c);
        for (Class<?> n : c.getDeclaredClasses()) {
            out.addAll(withNested(n));
        }
        for (int i = 1; ; i++) { // anonymous classes
            try {
                out.add(Class.forName(c.getName() + "$" + i, false, c.getClassLoader()));
            } catch (ClassNotFoundException e) {
                break;
            }
        }
        return out;
    }

    private static Set<String> typesReferencedBy(Class<?> c) throws Exception {
        Set<String> names = new TreeSet<>();
        byte[] bytes;
        try (InputStream in = c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
            assertThat(in).as(c.getName()).isNotNull();
            bytes = in.readAllBytes();
        }
        new ClassReader(bytes).accept(new ClassRemapper(new ClassWriter(0), new Remapper() {
            @Override
            public String map(String internalName) {
                names.add(internalName.replace('/', '.'));
                return internalName;
            }
        }), 0);
        return names;
    }
}
