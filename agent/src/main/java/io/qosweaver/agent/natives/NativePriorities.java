package io.qosweaver.agent.natives;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.natives.jna.JnaNativeThreads;
import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ProcThreadStat;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Plugs the native {@link NativeThreads} (JNA, Linux) into the scheduler's SPI. Called by the
 * agent before the scheduler is installed.
 *
 * <p><b>Packaging.</b> JNA cannot be shaded: its native library ({@code libjnidispatch}) finds
 * Java classes and methods by their original names ({@code com/sun/jna/...}), so relocated classes
 * break it. It is not put on the system class path either (it would clash with, or be shadowed by,
 * an application's own JNA). Instead {@code jna.jar} travels inside the agent jar as the resource
 * {@value #JNA_JAR}, is extracted to a temporary file and opened by a private {@link
 * IsolatedLoader} whose parent is the agent's loader. That loader is child-first for {@code
 * com.sun.jna.*} and for {@value #IMPL_PACKAGE}* (the JNA-linking implementation, read from the
 * agent's own code source), parent-first for everything else, so the implementation sees our JNA
 * and the bootstrap SPI interface, and nobody else sees our JNA.
 *
 * <p><b>Failure is never fatal.</b> The implementation is loaded lazily, the first time the policy
 * asks (only a {@code linux-priority} policy does); if JNA cannot load (no native library for the
 * platform, a noexec temporary directory, a clashing {@code jna.boot.library.path}, ...), one
 * {@code [qosweaver]} warning is logged and the SPI reports itself unavailable with the reason,
 * which the policy shows as {@code qosweaver_priority_effective{...} 0}.
 */
public final class NativePriorities {
    static final String JNA_JAR = "META-INF/qosweaver/jna.jar";
    static final String IMPL_PACKAGE = "io.qosweaver.agent.natives.jna.";
    static final String IMPL = IMPL_PACKAGE + "JnaNativeThreads";

    private NativePriorities() {}

    /**
     * Whether loading JNA now would make the JVM print its warning about a restricted method
     * ({@code System::load} called from an unnamed module: JDK 24 and later, JEP 472) because the
     * JVM was started without {@code --enable-native-access=ALL-UNNAMED} (or
     * {@code --illegal-native-access=allow}). A policy that sets native priorities needs JNA and
     * says so in that case; anything optional should not load it.
     */
    public static boolean loadingWouldWarn() {
        if (Runtime.version().feature() < 24) {
            return false;
        }
        try {
            // Module.isNativeAccessEnabled() is public from JDK 22 on; this is Java 17 bytecode
            if ((boolean) Module.class.getMethod("isNativeAccessEnabled").invoke(NativePriorities.class.getModule())) {
                return false;
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false; // cannot tell: the warning is the JVM's, the load still works
        }
        for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.equals("--illegal-native-access=allow")) {
                return false;
            }
        }
        return true;
    }

    /** Whether this JVM runs on Linux (the only OS with an implementation). */
    public static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");
    }

    /**
     * On Linux registers the (lazy) JNA implementation with {@link NativeThreads#register};
     * elsewhere leaves the scheduler's fallback, which reports itself unavailable with a reason.
     */
    public static void register(AgentLog log) {
        if (!isLinux()) {
            log.debug("native thread priorities: not Linux (" + System.getProperty("os.name")
                    + "), keeping the scheduler's fallback");
            return;
        }
        NativeThreads.register(new Lazy(log));
    }

    /**
     * Extracts the nested JNA, loads the implementation in a private loader, checks it once
     * (gettid agrees with /proc/thread-self) and returns it. Throws whatever went wrong.
     */
    public static NativeThreads loadIsolated() throws Exception {
        ClassLoader agentLoader = NativePriorities.class.getClassLoader();
        Path jna = Files.createTempFile("qosweaver-jna-", ".jar");
        jna.toFile().deleteOnExit();
        try (InputStream in = agentLoader.getResourceAsStream(JNA_JAR)) {
            if (in == null) {
                throw new IOException(JNA_JAR + " is missing from the agent jar (a broken build)");
            }
            Files.copy(in, jna, StandardCopyOption.REPLACE_EXISTING);
        }
        URL agentCode = NativePriorities.class.getProtectionDomain().getCodeSource().getLocation();
        IsolatedLoader loader = new IsolatedLoader(new URL[] {jna.toUri().toURL(), agentCode}, agentLoader);
        NativeThreads impl;
        try {
            impl = (NativeThreads) Class.forName(IMPL, true, loader).getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : new Exception(e.getCause());
        }
        int procTid = LinuxThreads.currentTid();
        int tid = impl.currentNativeThreadId();
        if (tid <= 0 || (procTid > 0 && tid != procTid)) {
            throw new IllegalStateException("gettid returned " + tid + " but /proc/thread-self says " + procTid
                    + " (os.arch " + System.getProperty("os.arch") + ")");
        }
        return impl;
    }

    /** The root cause's text, one line: what the warning and the metrics' reason show. */
    static String describe(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        String msg = String.valueOf(c.getMessage()).replace('\n', ' ');
        return c.getClass().getSimpleName() + ": " + msg;
    }

    /**
     * Child-first for our JNA and for the implementation package, parent-first for the rest
     * (java.*, the scheduler SPI on the bootstrap loader, the agent's own classes).
     */
    static final class IsolatedLoader extends URLClassLoader {
        static {
            registerAsParallelCapable();
        }

        IsolatedLoader(URL[] urls, ClassLoader parent) {
            super("qosweaver-jna", urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith("com.sun.jna.") && !name.startsWith(IMPL_PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }

        @Override
        public URL getResource(String name) {
            // JNA finds its native library as a resource (com/sun/jna/linux-x86-64/...): ours first
            if (name.startsWith("com/sun/jna/")) {
                URL u = findResource(name);
                if (u != null) {
                    return u;
                }
            }
            return super.getResource(name);
        }

        @Override
        public java.util.Enumeration<URL> getResources(String name) throws IOException {
            if (name.startsWith("com/sun/jna/")) {
                return findResources(name);
            }
            return super.getResources(name);
        }
    }

    /**
     * Registered at start-up; loads JNA the first time it is used, so an agent whose policy does not
     * set native priorities never extracts or loads a native library.
     */
    static final class Lazy implements NativeThreads {
        private final AgentLog log;
        private final java.util.concurrent.Callable<NativeThreads> loader;
        private volatile NativeThreads delegate;

        Lazy(AgentLog log) {
            this(log, NativePriorities::loadIsolated);
        }

        Lazy(AgentLog log, java.util.concurrent.Callable<NativeThreads> loader) {
            this.log = log;
            this.loader = loader;
        }

        private NativeThreads delegate() {
            NativeThreads d = delegate;
            if (d == null) {
                synchronized (this) {
                    d = delegate;
                    if (d == null) {
                        d = load();
                        delegate = d;
                    }
                }
            }
            return d;
        }

        private NativeThreads load() {
            try {
                NativeThreads impl = loader.call();
                log.debug("native thread priorities: " + impl);
                return impl;
            } catch (Exception | LinkageError e) {
                String reason = "JNA could not be loaded (" + describe(e) + ")" + jnaProperties();
                log.warn("native thread priorities unavailable: " + reason);
                return new Unavailable(reason);
            }
        }

        private static String jnaProperties() {
            StringBuilder sb = new StringBuilder();
            for (String p : new String[] {"jna.boot.library.path", "jna.nosys", "jna.tmpdir"}) {
                String v = System.getProperty(p);
                if (v != null) {
                    sb.append(sb.length() == 0 ? "; " : ", ").append(p).append('=').append(v);
                }
            }
            return sb.toString();
        }

        @Override
        public boolean available() {
            return delegate().available();
        }

        @Override
        public String unavailableReason() {
            return delegate().unavailableReason();
        }

        @Override
        public int currentNativeThreadId() {
            return delegate().currentNativeThreadId();
        }

        @Override
        public void setNice(int tid, int nice) throws NativePriorityException {
            delegate().setNice(tid, nice);
        }

        @Override
        public int getNice(int tid) throws NativePriorityException {
            return delegate().getNice(tid);
        }

        @Override
        public void setIdle(int tid, boolean idle) throws NativePriorityException {
            delegate().setIdle(tid, idle);
        }

        @Override
        public boolean isIdle(int tid) throws NativePriorityException {
            return delegate().isIdle(tid);
        }

        /**
         * -1 without loading JNA when loading it would make the JVM print its restricted-method
         * warning: the scheduler asks this to decide on an optional placement, which must never
         * be what makes every JVM print that warning.
         */
        @Override
        public int currentCpu() {
            if (delegate == null && loadingWouldWarn()) {
                return -1;
            }
            return delegate().currentCpu();
        }

        @Override
        public boolean getAffinityMask(int tid, long[] mask) {
            return delegate().getAffinityMask(tid, mask);
        }

        @Override
        public boolean setAffinityMask(int tid, long[] mask) {
            return delegate().setAffinityMask(tid, mask);
        }

        @Override
        public void setAffinity(int tid, int[] cpus) throws NativePriorityException {
            delegate().setAffinity(tid, cpus);
        }

        @Override
        public String toString() {
            return "lazy " + delegate;
        }
    }

    /** What is left when JNA failed: reads from /proc like the scheduler's fallback, sets nothing. */
    static final class Unavailable implements NativeThreads {
        private final String reason;

        Unavailable(String reason) {
            this.reason = reason;
        }

        @Override
        public boolean available() {
            return false;
        }

        @Override
        public String unavailableReason() {
            return reason;
        }

        @Override
        public int currentNativeThreadId() {
            return LinuxThreads.currentTid();
        }

        @Override
        public void setNice(int tid, int nice) throws NativePriorityException {
            throw new NativePriorityException(reason, 0);
        }

        @Override
        public int getNice(int tid) throws NativePriorityException {
            return ProcThreadStat.nice(tid);
        }
    }
}
