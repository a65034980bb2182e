package io.qosweaver.agent.unit.callprobe;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.log.AgentLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which packages the profiling mode may weave its probe into (the callers of a profile), and
 * the check of {@code include=}.
 *
 * <p><b>The deny list.</b> A package is never profiled as a caller when the probe, the profile
 * writer, the agent's weaving or its start/stop control runs its code, or when the JDK's core
 * that they run on does: a probe woven there would be entered from inside the probe (recursion),
 * record the writer's own writes (feedback), or run inside Byte Buddy's transformation of a
 * class (class-loading circularity). What each of them runs, and so why each entry is here, is
 * in {@link #DENIED}; an entry is a prefix ({@code java.util} is {@code java.util} and every
 * package below it). Calls <em>to</em> these packages are recorded anyway (the callee may be
 * anything); only their own methods are never callers.
 *
 * <p><b>Other JDK packages</b> ({@code sun.java2d.marlin}, {@code com.sun.imageio.plugins.png},
 * {@code java.awt}, ...) may be profiled, but only when {@code include=} names them: an include
 * that also covers a denied package ({@code sun}, {@code java}, {@code com.sun}, {@code javax},
 * {@code com}) is refused with the denied packages it covers, and a class in a JDK name space
 * ({@link #JDK_NAMESPACES}) is only matched by an include in that name space, so
 * {@code include=org} profiles {@code org.jfree} but not the JDK's {@code org.w3c.dom}.
 */
public final class ProfiledPackages {
    private ProfiledPackages() {}

    private static final String PROBE = "the probe runs it on every profiled call";
    private static final String WRITER = "the profile writer thread and the agent's log run it";
    private static final String WEAVING = "Byte Buddy and class loading run it while a class is woven";
    private static final String JMX = "the profiler's JMX control (start/stop over the MXBean, jconsole) runs it";
    private static final String HTTP = "the profiler's HTTP control (POST /profile/start|stop) runs it";
    private static final String OURS = "it is QoSWeaver itself";

    /**
     * Prefix to the reason it is denied. Checked against what the code does, not guessed:
     * <ul>
     * <li>the probe ({@code bootstrap.CallProbe.record} and the chunk hand-off): {@code Thread},
     * {@code ThreadLocal}, {@code System.nanoTime}, {@code VarHandle} (java.lang, java.lang.invoke),
     * {@code ConcurrentLinkedQueue}, {@code AtomicInteger/Long}, {@code LockSupport}, {@code Arrays}
     * (java.util.*), and under those {@code jdk.internal.misc.Unsafe};</li>
     * <li>the writer ({@code ProfileRecording}, {@code BinaryProfileWriter}) and {@code AgentLog}:
     * {@code Files}, {@code BufferedOutputStream}, channels and charsets (java.io, java.nio,
     * sun.nio.fs/ch/cs), {@code Instant} (java.time);</li>
     * <li>weaving (the shaded Byte Buddy inside a {@code ClassFileTransformer}, on whichever
     * thread loads or retransforms a class): reflection, method handles, {@code Module} read
     * edges, {@code java.lang.instrument} and {@code sun.instrument}, class files read through
     * class-loader resources (jdk.internal.loader, jimage, java.util.jar/zip, java.net URLs,
     * sun.net.www protocol handlers), protection domains and jar verification (java.security,
     * sun.security), {@code sun.misc.Unsafe}, sun.reflect, sun.invoke;</li>
     * <li>control: the platform MBean server (javax.management, com.sun.jmx,
     * java.lang.management, sun.management, com.sun.management; remote JMX through java.rmi,
     * sun.rmi, javax.net, javax.security) and the JDK HTTP server (com.sun.net.httpserver,
     * sun.net.httpserver, java.net sockets, and its {@code System.Logger} through
     * jdk.internal.logger and sun.util.logging);</li>
     * <li>QoSWeaver's own packages and the Byte Buddy the agent runs (relocated under
     * {@code io.qosweaver.agent.shaded} in the agent jar).</li>
     * </ul>
     */
    public static final Map<String, String> DENIED;

    static {
        Map<String, String> d = new LinkedHashMap<>();
        d.put("java.lang", PROBE + " (Thread, ThreadLocal, System.nanoTime, VarHandle); " + WEAVING
                + " (reflection, java.lang.invoke, java.lang.instrument, Module read edges)");
        d.put("java.util", PROBE + " (the lock-free chunk queue, atomics, LockSupport, Arrays); " + WEAVING
                + " (collections, java.util.jar and java.util.zip for class files)");
        d.put("java.io", WRITER);
        d.put("java.nio", WRITER + " (java.nio.file, channels, charsets)");
        d.put("java.time", WRITER + " (the profile's start time)");
        d.put("java.net", WEAVING + " (class-path URLs and resources); " + HTTP + " (sockets)");
        d.put("java.security", WEAVING + " (protection domains, code sources, AccessController)");
        d.put("java.rmi", JMX + " (remote JMX)");
        d.put("javax.management", JMX);
        d.put("javax.net", JMX + " (socket factories of remote JMX)");
        d.put("javax.security", JMX + " (remote JMX authentication)");
        d.put("jdk.internal", PROBE + " (Unsafe under the atomics and the queue); " + WEAVING
                + " (jdk.internal.loader, jimage, reflect); " + HTTP + " (jdk.internal.logger)");
        d.put("sun.misc", WEAVING + " (sun.misc.Unsafe)");
        d.put("sun.reflect", WEAVING + " (ReflectionFactory)");
        d.put("sun.invoke", WEAVING + " (under java.lang.invoke)");
        d.put("sun.instrument", "the JVM calls the agent's transformers through it");
        d.put("sun.nio", WRITER + " (sun.nio.fs, sun.nio.ch, the sun.nio.cs encoders)");
        d.put("sun.net", WEAVING + " (jar: and file: URL handlers of sun.net.www); " + HTTP + " (sun.net.httpserver)");
        d.put("sun.security", WEAVING + " (jar verification, sun.security.util)");
        d.put("sun.util", HTTP + " (sun.util.logging behind its System.Logger); java.util runs it (sun.util.locale)");
        d.put("sun.management", JMX);
        d.put("sun.rmi", JMX + " (remote JMX)");
        d.put("com.sun.jmx", JMX);
        d.put("com.sun.management", JMX + " (the JDK's platform MXBeans)");
        d.put("com.sun.net.httpserver", HTTP);
        d.put("io.qosweaver.agent", OURS);
        d.put("io.qosweaver.scheduler", OURS);
        d.put("io.qosweaver.pointcuts", OURS);
        d.put("io.qosweaver.model", OURS);
        d.put("io.qosweaver.platform", OURS);
        d.put("io.qosweaver.cli", OURS);
        // The Byte Buddy the agent runs: net.bytebuddy on a plain class path (in-process tests), and
        // io.qosweaver.agent.shaded.net.bytebuddy in the agent jar, where the shade plugin relocates
        // this class reference (it would rewrite a "net.bytebuddy" string literal just the same,
        // silently). An application's own Byte Buddy is not run by the profiler and may be profiled.
        d.put(net.bytebuddy.ByteBuddy.class.getPackageName(), OURS + " (the Byte Buddy that weaves the probe)");
        DENIED = java.util.Collections.unmodifiableMap(d);
    }

    /**
     * Name spaces of the JDK's packages (of every module of the JDK 17 boot layer; checked by
     * {@code ProfilingTest}). A class in one of them is profiled only through an include inside
     * the same name space, i.e. one that names JDK packages explicitly.
     */
    public static final List<String> JDK_NAMESPACES = List.of("java", "javax", "jdk", "sun", "com.sun", "org.w3c",
            "org.xml", "org.ietf", "org.jcp", "netscape");

    /** True if {@code name} is the package {@code prefix} or a package or class below it. */
    public static boolean within(String name, String prefix) {
        return name.startsWith(prefix) && (name.length() == prefix.length() || name.charAt(prefix.length()) == '.');
    }

    /** The denied prefix {@code name} (a package or class name) lies in, or null. */
    public static String deniedPrefix(String name) {
        for (String d : DENIED.keySet()) {
            if (within(name, d)) {
                return d;
            }
        }
        return null;
    }

    /** The JDK name space {@code name} lies in, or null. */
    public static String jdkNamespace(String name) {
        for (String n : JDK_NAMESPACES) {
            if (within(name, n)) {
                return n;
            }
        }
        return null;
    }

    /**
     * Checks one package of {@code include=}.
     *
     * @throws IllegalArgumentException naming the denied package it lies in, or the denied
     *     packages it covers
     */
    public static void check(String include, String raw) {
        String in = deniedPrefix(include);
        if (in != null) {
            throw new IllegalArgumentException("include=" + raw + ": '" + include + "' is in " + in
                    + ", which is never profiled as a caller: " + DENIED.get(in) + ". Calls from the included"
                    + " packages to " + in + " are recorded anyway (the callee may be anything)");
        }
        List<String> covered = new ArrayList<>();
        for (String d : DENIED.keySet()) {
            if (within(d, include) && DENIED.keySet().stream().noneMatch(o -> !o.equals(d) && within(d, o))) {
                covered.add(d); // not the ones inside another denied package (the shaded Byte Buddy)
            }
        }
        if (!covered.isEmpty()) {
            throw new IllegalArgumentException("include=" + raw + ": '" + include + "' also covers "
                    + String.join(", ", covered) + ", which " + (covered.size() == 1 ? "is" : "are")
                    + " never profiled as callers (the probe, the profile writer, the agent's weaving or its"
                    + " JMX/HTTP control run them; see agent/README.md \"Profiling\"). Name the packages to"
                    + " profile below it explicitly, e.g. include=org.jfree+sun.java2d.marlin+com.sun.imageio.plugins.png");
        }
    }

    /**
     * True if the class {@code className} is profiled with these (checked) includes: it lies in
     * one of them, it is not denied, and if it is in a JDK name space, the include that covers
     * it is in that name space too.
     */
    public static boolean profiled(String className, List<String> include) {
        String jdk = null;
        boolean jdkKnown = false;
        for (String p : include) {
            if (className.length() > p.length() && className.startsWith(p) && className.charAt(p.length()) == '.') {
                if (!jdkKnown) {
                    if (deniedPrefix(className) != null) {
                        return false;
                    }
                    jdk = jdkNamespace(className);
                    jdkKnown = true;
                }
                if (jdk == null || within(p, jdk)) {
                    return true;
                }
            }
        }
        return false;
    }
}
