package io.qosweaver.agent.runtime;

import com.sun.net.httpserver.HttpHandler;
import io.qosweaver.agent.control.ControlServer;
import io.qosweaver.agent.control.Routes;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.natives.NativePriorities;
import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.model.pointcut.TypePattern;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.PolicyFileException;
import io.qosweaver.agent.profiling.ProfilingSession;
import io.qosweaver.agent.bootstrap.Hooks;
import io.qosweaver.agent.unit.hooks.ClassBytesTaps;
import io.qosweaver.agent.unit.hooks.HooksUnit;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.agent.control.LocalControl;
import io.qosweaver.platform.ControlSockets;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The running agent: the policy file, the scheduler it installed, the weaving and the metrics
 * endpoint. Start-up rules (agent/README.md): a broken policy file stops the JVM unless failOpen;
 * a failure of the agent itself never stops the application, which then runs unscheduled.
 */
public final class AgentRuntime {
    private static volatile AgentRuntime current;

    private final AgentLog log;
    private final Instrumentation inst;
    private volatile String policyFile;
    /** The policy in force (null when the file given at start was broken and failOpen let it go). */
    private volatile PolicyFile policy;
    /** Policy parameters changed by {@code ctl set} since the file was read; cleared by a swap. */
    private final Map<String, String> overrides = new LinkedHashMap<>();
    private volatile Weaving weaving;
    private volatile boolean unscheduled;
    private volatile ControlServer metrics;
    private volatile LocalControl control;
    /** {@code qosweaver watch}: weaves under this runtime's lock, like a swap. */
    private final LiveWatch watch;
    /** The hooks mode: its arguments, weaving and unit (null without hooks), and the taps (null unless recorded). */
    private volatile HooksArgs hooksArgs = HooksArgs.NONE;
    private volatile Weaving hooksWeaving;
    private volatile HooksUnit hooksUnit;
    private volatile ClassBytesTaps taps;
    /** Raises the JIT's compiler threads for a while after a retransformation (see there why). */
    private final CompilerBoost jitBoost;
    /** Says when requests waiting at entry fill a server's thread pool. */
    private final PoolWatch poolWatch;

    private AgentRuntime(AgentLog log, Instrumentation inst, String policyFile) {
        this.log = log;
        this.jitBoost = CompilerBoost.forThisJvm(log);
        this.inst = inst;
        this.policyFile = policyFile;
        this.watch = new LiveWatch(this, inst, log);
        this.poolWatch = new PoolWatch(log);
    }

    LiveWatch watch() {
        return watch;
    }

    public static AgentRuntime current() {
        return current;
    }

    /** Thrown out of premain so that the JVM exits non-zero: the policy file is broken. */
    public static final class PolicyStartupException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PolicyStartupException(String message) {
            super(message, null, false, false);
        }
    }

    public static AgentRuntime start(AgentArgs args, Instrumentation inst, AgentLog log) {
        return start(args, HooksArgs.NONE, inst, log);
    }

    /**
     * Starts the agent; with {@code hooks} also the hooks mode (its own transformer, removed by
     * {@link #unweave} with the policy's) and the class-byte taps, the first before every
     * transformer of ours and the last after them. Without a policy file (hooks mode alone)
     * nothing is scheduled.
     */
    public static AgentRuntime start(AgentArgs args, HooksArgs hooks, Instrumentation inst, AgentLog log) {
        AgentRuntime rt = new AgentRuntime(log, inst, args.policy() == null ? "(none)" : args.policy().toString());
        current = rt;
        rt.hooksArgs = hooks;
        if (hooks.recordClassBytes()) {
            rt.taps = new ClassBytesTaps();
            rt.taps.installFirst(inst);
        }
        rt.installHooks();
        try {
            if (args.policy() == null) {
                rt.unscheduled = true;
                log.info("agent started without a policy (hooks mode): nothing is scheduled");
                rt.startMetrics(args.metricsPort());
                rt.startControl(args.control());
            } else {
                rt.startPolicy(args);
            }
        } finally {
            if (rt.taps != null) {
                rt.taps.installLast(inst);
                // classes woven by retransformation at installation went by before the last tap was there
                for (Weaving w : new Weaving[] {rt.weaving, rt.hooksWeaving}) {
                    if (w != null && w.stats().retransformed() > 0) {
                        w.retransformAgain();
                    }
                }
            }
        }
        return rt;
    }

    private void installHooks() {
        if (hooksArgs.mode() == null) {
            return;
        }
        try {
            WeavingStats stats = new WeavingStats();
            HooksUnit unit = new HooksUnit(hooksArgs.include(), hooksArgs.calls(), stats);
            hooksWeaving = Weaving.install(inst, List.of(unit), stats, ElementMatchers.none(),
                    AgentBuilder.Listener.NoOp.INSTANCE, log, Weaving.bootstrapCopy(Hooks.class));
            hooksUnit = unit;
            log.info("hooks: an idle hook at every " + (hooksArgs.calls() ? "call and execution" : "execution")
                    + " join point of " + String.join("+", hooksArgs.include()) + " (" + unit.executions()
                    + " methods, " + unit.calls() + " call sites in the classes loaded so far)");
        } catch (RuntimeException | LinkageError e) {
            log.loud("hooks not woven (" + e + ")");
        }
    }

    /** The hooks mode's counters, for {@code ctl status} and {@code ctl hooks}; empty without it. */
    public Map<String, Object> hooksStatus() {
        Map<String, Object> m = new LinkedHashMap<>();
        HooksUnit unit = hooksUnit;
        if (hooksArgs.mode() != null) {
            m.put("mode", hooksArgs.mode());
            m.put("include", hooksArgs.include());
            m.put("woven", hooksWeaving != null);
            if (unit != null) {
                m.put("executions", unit.executions());
                m.put("calls", unit.calls());
                m.put("hookSites", unit.hookSites());
            }
        }
        return m;
    }

    /** The class-byte taps, or null when {@code recordClassBytes} is off. */
    public ClassBytesTaps taps() {
        return taps;
    }

    private void startPolicy(AgentArgs args) {
        AgentRuntime rt = this;
        Path path = args.policy();
        boolean failOpen = args.failOpen() != null ? args.failOpen() : PolicyFile.declaresFailOpen(path);
        PolicyFile policy;
        try {
            policy = PolicyFile.load(path);
            failOpen = args.failOpen() != null ? args.failOpen() : policy.failOpen();
            registerNativeThreads(log); // before install: policies read the SPI when created
            installScheduler(policy);
            jitBoost.rest(SchedulerGateway.compilerPriority());
        } catch (PolicyFileException e) {
            log.error("policy " + e.getMessage());
            if (!failOpen) {
                throw new PolicyStartupException("[qosweaver] refusing to start: policy " + e.getMessage()
                        + " (fix the file, or set failOpen: true to start unscheduled)");
            }
            log.loud("failOpen: the policy file " + path + " is broken (see the ERROR above);"
                    + " the application starts UNSCHEDULED");
            rt.unscheduled = true;
            rt.startMetrics(args.metricsPort());
            rt.startControl(args.control());
            return;
        }
        rt.policy = policy;
        try {
            rt.weaving = PolicyWeaving.install(inst, policy, log);
            if (rt.weaving.stats().retransformed() > 0) {
                jitBoost.retransformed(); // attached late: loaded classes lost their compiled code
            }
        } catch (RuntimeException | LinkageError e) {
            SchedulerGateway.uninstall();
            jitBoost.rest(null);
            log.loud("weaving failed (" + e + "); the application starts UNSCHEDULED");
            rt.unscheduled = true;
            rt.startMetrics(args.metricsPort());
            rt.startControl(args.control());
            return;
        }
        log.info("agent started: policy " + path + ", " + policy.taskClasses().size() + " task classes, "
                + policy.controlPoints().size() + " control-point pointcuts"
                + (policy.progressPoints().isEmpty() ? "" : ", " + policy.progressPoints().size()
                        + " progress-point pointcuts"));
        if (args.intervals()) {
            SchedulerGateway.measureIntervals(true);
            log.info("measuring control-point intervals (every control point reads the clock)");
        }
        rt.startMetrics(args.metricsPort());
        rt.startControl(args.control());
        rt.warnMissingTypes(policy);
        int check = args.matchCheckSeconds() != null ? args.matchCheckSeconds() : policy.matchCheckSeconds();
        rt.scheduleMatchCheck(check);
        rt.poolWatch.start();
        return;
    }

    /**
     * The JNA implementation of the scheduler's NativeThreads SPI (Linux only; loaded lazily, only
     * when a policy such as linux-priority uses it). Never fatal: the policy then reports itself
     * not effective with the reason.
     */
    private static void registerNativeThreads(AgentLog log) {
        if (io.qosweaver.platform.NativeThreads.get() != io.qosweaver.platform.NativeThreads.fallback()) {
            return; // registered already (a trace started first): JNA is loaded once
        }
        try {
            NativePriorities.register(log);
        } catch (RuntimeException | LinkageError e) {
            log.warn("native thread priorities unavailable: " + e);
        }
    }

    private static void installScheduler(PolicyFile policy) throws PolicyFileException {
        try {
            SchedulerGateway.install(SchedulerGateway.configOf(policy));
        } catch (PolicyConfigException e) {
            throw policy.configError(e.key(), e.getMessage());
        }
    }

    public Weaving weaving() {
        return weaving;
    }

    public boolean unscheduled() {
        return unscheduled;
    }

    public String policyFile() {
        return policyFile;
    }

    /** The policy in force, or null (unwoven, or a broken file at start under failOpen). */
    public PolicyFile policy() {
        return policy;
    }

    /** Policy parameters set at run time over the file's, in the order set. */
    public synchronized Map<String, String> overrides() {
        return new LinkedHashMap<>(overrides);
    }

    /**
     * Unweaves every class and uninstalls the scheduler, releasing every thread it held; the
     * control socket stays, so that a policy can be swapped in again.
     */
    public synchronized boolean unweave() {
        jitBoost.pause();
        try (WeavingPriority priority = WeavingPriority.raise(log)) {
            return unweaveAll();
        } finally {
            jitBoost.resume();
        }
    }

    private boolean unweaveAll() {
        watch.stopIfRunning();
        Weaving w = weaving;
        weaving = null;
        policy = null;
        overrides.clear();
        SchedulerGateway.uninstall();
        jitBoost.rest(null);
        io.qosweaver.agent.bootstrap.ServerPools.configure(null, null); // the servers' own values back
        unscheduled = true;
        boolean reset = w == null || w.reset();
        Weaving hooks = hooksWeaving;
        hooksWeaving = null;
        reset &= hooks == null || hooks.reset();
        if (w != null || hooks != null) {
            jitBoost.retransformed();
        }
        log.info("unwoven: every woven class retransformed to its original bytes" + (reset ? "" : " (INCOMPLETE: the"
                + " JVM refused some classes)") + "; the scheduler is uninstalled");
        return reset;
    }

    /**
     * Replaces the policy in force with the file at {@code path}, all or nothing: the file is
     * parsed and its scheduler configuration validated before anything changes. If the new file
     * weaves the same join points as the old (the same pointcuts in the same order, wherever they
     * are in the file), the weaving stays and only the scheduler is replaced: nothing is
     * retransformed. Otherwise the old transformer is removed, the new one installed (which
     * retransforms the classes it selects, from their original bytes, once), and the classes only
     * the old one wove are retransformed back. The new scheduler, installed last, releases every
     * thread the old one held and adopts the tasks already running in task classes whose names the
     * new file also has (their frames keep the hooks they entered with, so their exits reach it);
     * those of other names finish unmanaged, and after an {@link #unweave} there is nothing to
     * adopt. The answer says how many were adopted, per class. If weaving the new file fails, the
     * old policy is woven again.
     *
     * @return what was done, one line
     * @throws PolicyFileException the file is broken (nothing changed)
     * @throws IllegalStateException weaving failed (the old policy runs again, or nothing if that failed too)
     */
    public synchronized String swap(Path path) throws PolicyFileException {
        jitBoost.pause();
        try (WeavingPriority priority = WeavingPriority.raise(log)) {
            return swapTo(path, priority.raised());
        } finally {
            jitBoost.resume();
        }
    }

    private static long threadCpuNanos() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : 0;
    }

    private String swapTo(Path path, boolean raised) throws PolicyFileException {
        PolicyFile next = PolicyFile.load(path);
        SchedulerConfig config = SchedulerGateway.configOf(next);
        try {
            SchedulerGateway.validate(config);
        } catch (PolicyConfigException e) {
            throw next.configError(e.key(), e.getMessage());
        }
        PolicyFile old = policy;
        Weaving oldWeaving = weaving;
        long started = System.nanoTime();
        long cpuStarted = threadCpuNanos();
        Weaving woven;
        String how;
        if (old != null && oldWeaving != null && PolicyWeaving.sameWeaving(old, next)) {
            PolicyWeaving.adopt(oldWeaving, next);
            woven = oldWeaving;
            how = "the same join points as before: the weaving kept, nothing retransformed";
        } else {
            if (oldWeaving != null) {
                oldWeaving.detach();
            }
            try {
                woven = PolicyWeaving.install(inst, next, log);
            } catch (RuntimeException | LinkageError e) {
                weaving = null;
                String back = "; nothing is woven now";
                if (old != null && oldWeaving != null) {
                    try {
                        weaving = PolicyWeaving.install(inst, old, log);
                        back = "; the old policy " + policyFile + " is woven again";
                    } catch (RuntimeException | LinkageError again) {
                        oldWeaving.reset();
                        SchedulerGateway.uninstall();
                        jitBoost.rest(null);
                        io.qosweaver.agent.bootstrap.ServerPools.configure(null, null);
                        policy = null;
                        unscheduled = true;
                        back = "; weaving the old policy again failed too (" + again + "): the application runs UNSCHEDULED";
                    }
                }
                log.loud("policy swap to " + path + " failed while weaving (" + e + ")" + back);
                throw new IllegalStateException("weaving " + path + " failed (" + e + ")" + back, e);
            }
            int restored = oldWeaving == null ? 0 : oldWeaving.restoreLeftovers(woven);
            if (woven.stats().retransformed() > 0 || restored != 0) {
                jitBoost.retransformed();
            }
            how = woven.stats().retransformed() + " classes retransformed to the new hooks, " + Math.abs(restored)
                    + " back to their original bytes" + (restored < 0 ? " (the JVM refused some: see above)" : "");
        }
        Map<String, Integer> adopted = SchedulerGateway.install(config);
        jitBoost.rest(SchedulerGateway.compilerPriority());
        weaving = woven;
        policy = next;
        policyFile = path.toString();
        overrides.clear();
        unscheduled = false;
        long ms = (System.nanoTime() - started) / 1_000_000;
        long cpuMs = (threadCpuNanos() - cpuStarted) / 1_000_000;
        // CPU time well below the wall time: the thread waited (for a CPU, or at safepoints)
        String done = "swapped to " + path + " (policy " + next.policyName() + ", " + next.taskClasses().size()
                + " task classes, " + next.controlPoints().size() + " control-point pointcuts) in " + ms + " ms (this"
                + " thread's CPU " + cpuMs + " ms" + (raised ? ", at nice " + WeavingPriority.NICE : "") + "); "
                + woven.stats().classesWoven() + " classes woven; " + how + "; " + SchedulerGateway.adoptionText(adopted);
        log.info(done);
        scheduleMatchCheck(next.matchCheckSeconds());
        poolWatch.start();
        return done;
    }

    /**
     * Changes policy parameters without weaving: the scheduler is re-created with the file's
     * parameters and every one set so far, and replaces the current one. Threads it held are
     * released; the new one adopts the tasks already running (every class keeps its name), so its
     * policy applies to them at once (a running high task keeps the new lowLimit applied) and their
     * exits reach it. The answer says how many were adopted, per class.
     *
     * @param changes parameter names (with or without {@code policy.}) and their new values
     * @throws IllegalArgumentException a bad name or value (nothing changed)
     * @throws IllegalStateException no policy is in force
     */
    public synchronized String set(Map<String, String> changes) {
        PolicyFile p = policy;
        if (p == null || weaving == null) {
            throw new IllegalStateException("no policy is in force (unwoven, or a broken file at start): swap one in first");
        }
        Map<String, String> params = new LinkedHashMap<>(p.policyParameters());
        params.putAll(overrides);
        Map<String, String> clean = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : changes.entrySet()) {
            String key = e.getKey().startsWith("policy.") ? e.getKey().substring("policy.".length()) : e.getKey();
            if (key.isEmpty() || key.equals("name")) {
                throw new IllegalArgumentException("'" + e.getKey() + "': set changes a parameter of the policy in force"
                        + " (e.g. policy.lowLimit=2); to change the policy itself, swap a file");
            }
            clean.put(key, e.getValue());
        }
        params.putAll(clean);
        SchedulerConfig current = SchedulerGateway.configOf(p);
        SchedulerConfig config = new SchedulerConfig(current.taskClasses(),
                new SchedulerConfig.PolicySpec(p.policyName(), params));
        try {
            SchedulerGateway.validate(config);
        } catch (PolicyConfigException e) {
            throw new IllegalArgumentException("policy." + e.key() + ": " + e.getMessage() + " (policy " + p.policyName()
                    + " of " + policyFile + "; nothing changed)");
        }
        Map<String, Integer> adopted = SchedulerGateway.install(config);
        jitBoost.rest(SchedulerGateway.compilerPriority());
        overrides.putAll(clean);
        String done = "set " + clean + " on policy " + p.policyName() + " (the scheduler was re-created; "
                + SchedulerGateway.adoptionText(adopted) + ")";
        log.info(done);
        return done;
    }

    /** Off the start-up path, under this runtime's lock like a swap: see {@link SwapRehearsal}. */
    private void rehearseLater() {
        Thread t = new Thread(() -> {
            synchronized (this) {
                try {
                    log.debug("swap rehearsed" + (SwapRehearsal.run(inst, log) ? "" : " (incompletely)"));
                } catch (Exception | LinkageError e) {
                    log.debug("swap rehearsal failed (a first swap may take longer under load): " + e);
                }
            }
        }, "qosweaver-rehearsal");
        t.setDaemon(true);
        t.start();
    }

    private void startControl(boolean on) {
        if (!on) {
            return;
        }
        try {
            control = LocalControl.start(ControlSockets.directory(), ProcessHandle.current().pid(),
                    new RuntimeCommands(this), log);
            log.info("control socket " + control.socket() + " (qosweaver ctl " + ProcessHandle.current().pid() + ")");
            rehearseLater();
            Runtime.getRuntime().addShutdownHook(new Thread(control::close, "qosweaver-ctl-close"));
        } catch (IOException | RuntimeException e) {
            log.warn("control socket not started (qosweaver ctl will not reach this JVM): " + e.getMessage());
        }
    }

    private void startMetrics(int port) {
        if (port < 0) {
            return;
        }
        try {
            Map<String, HttpHandler> routes = new LinkedHashMap<>();
            routes.put("/metrics", Routes.metrics(this::metricsText));
            routes.put("/timeline", Routes.timeline(SchedulerGateway::timelineText));
            routes.put("/intervals/", Routes.onOff("/intervals/", () -> SchedulerGateway.INTERVALS, ""));
            routes.put("/profile/", Routes.onOff("/profile/", ProfilingSession::current,
                    "the agent is not in profiling mode (start it with profile=FILE,include=PKG)"));
            metrics = ControlServer.start(port, routes);
            log.info("metrics on http://127.0.0.1:" + metrics.port() + "/metrics");
        } catch (Exception e) {
            log.warn("metrics endpoint not started on port " + port + ": " + e);
        }
    }

    /**
     * Nothing can be known for sure at start-up (classes load later, some through web app loaders),
     * but a fully qualified declaring type that no class path holds is almost always a typo.
     */
    private void warnMissingTypes(PolicyFile policy) {
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                warnMissingTypes(t.entry(), t.location());
            }
        }
        for (PolicyFile.ControlPointDef cp : policy.controlPoints()) {
            warnMissingTypes(cp.pointcut(), cp.location());
        }
        for (PolicyFile.ProgressPointDef pp : policy.progressPoints()) {
            warnMissingTypes(pp.pointcut(), pp.location());
        }
    }

    private void warnMissingTypes(Pointcut p, String location) {
        Set<String> missing = new LinkedHashSet<>();
        for (Pointcut.Designator d : p.designators()) {
            TypePattern type = d.pattern().declaringType();
            String name = type.exactName();
            if (name != null && !exists(name)) {
                missing.add(name);
            }
        }
        for (String name : missing) {
            log.warn("pointcut " + location + ": type " + name + " is not on the class path at start-up"
                    + " (fine if a web application loads it later; otherwise check the name)");
        }
    }

    private static boolean exists(String name) {
        String resource = name.replace('.', '/') + ".class";
        return ClassLoader.getSystemResource(resource) != null;
    }

    private void scheduleMatchCheck(int seconds) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qosweaver-match-check");
            t.setDaemon(true);
            return t;
        });
        timer.schedule(() -> {
            try {
                checkMatches(seconds);
            } finally {
                timer.shutdown();
            }
        }, seconds, TimeUnit.SECONDS);
    }

    /** Logs, loudly, every pointcut that has selected no join point in any loaded class. */
    void checkMatches(int seconds) {
        Weaving w = weaving;
        if (w == null) {
            return;
        }
        for (WeavingStats.PointcutStats p : w.stats().pointcuts()) {
            if (p.kind().equals("threadPool")) {
                boolean jetty = p.text().startsWith("jetty");
                int kind = jetty ? io.qosweaver.agent.bootstrap.ServerPools.JETTY
                        : io.qosweaver.agent.bootstrap.ServerPools.TOMCAT;
                if (io.qosweaver.agent.bootstrap.ServerPools.found(kind) == 0) {
                    log.loud("threadPools " + p.location() + ": no " + (jetty ? "Jetty QueuedThreadPool" : "Tomcat"
                            + " connector (AbstractEndpoint)") + " seen after " + seconds + " s; a pool is seen when"
                            + " it starts or dispatches work");
                }
            } else if (p.kind().equals(WeavingStats.POOL_WATCH)) {
                continue; // the agent's own: a server the application does not run is no mistake
            } else if (p.joinPoints() == 0 && p.kind().equals("request")) {
                log.loud("task classes that select requests (" + p.location() + ": " + p.text() + ") have seen no"
                        + " supported server after " + seconds + " s: the agent classifies requests in Jetty 9.4"
                        + " to 12 (Server.handle), Tomcat (CoyoteAdapter), Undertow (Connectors.executeRootHandler) and any"
                        + " servlet container (Servlet.service);"
                        + " this JVM has loaded none of them yet");
            } else if (p.joinPoints() == 0) {
                log.loud(p.kind() + " pointcut " + p.location() + " has matched no loaded method after " + seconds
                        + " s: " + p.text());
            }
        }
    }

    /** What {@code GET /metrics} serves: the scheduler's statistics, then the agent's own counters. */
    private String metricsText() {
        String text = SchedulerGateway.metricsText();
        if (!text.isEmpty() && !text.endsWith("\n")) {
            text += "\n";
        }
        return text + agentMetrics();
    }

    /** The agent's own metrics, appended to the scheduler's. */
    String agentMetrics() {
        StringBuilder sb = new StringBuilder();
        Weaving w = weaving;
        sb.append("# HELP qosweaver_agent_unscheduled 1 when the application runs without the scheduler (failOpen)\n");
        sb.append("# TYPE qosweaver_agent_unscheduled gauge\n");
        sb.append("qosweaver_agent_unscheduled ").append(unscheduled ? 1 : 0).append('\n');
        if (w == null) {
            return sb.toString();
        }
        WeavingStats s = w.stats();
        sb.append("# HELP qosweaver_agent_classes_woven_total Classes transformed by the agent\n");
        sb.append("# TYPE qosweaver_agent_classes_woven_total counter\n");
        sb.append("qosweaver_agent_classes_woven_total ").append(s.classesWoven()).append('\n');
        sb.append("# HELP qosweaver_agent_weave_errors_total Classes left unwoven because weaving failed\n");
        sb.append("# TYPE qosweaver_agent_weave_errors_total counter\n");
        sb.append("qosweaver_agent_weave_errors_total ").append(s.errors()).append('\n');
        sb.append("# HELP qosweaver_agent_pointcuts Pointcuts in the policy file\n");
        sb.append("# TYPE qosweaver_agent_pointcuts gauge\n");
        long entries = 0;
        long requests = 0;
        long cps = 0;
        long pps = 0;
        long aspects = 0;
        for (WeavingStats.PointcutStats p : s.pointcuts()) {
            switch (p.kind()) {
                case "entry" -> entries++;
                case "request" -> requests++;
                case "progressPoint" -> pps++;
                case WeavingStats.POOL_WATCH -> { } // not in the policy file
                case "bulkhead", "synchronize", "semaphore-wait", "semaphore-signal", "timeout", "threadPool" -> aspects++;
                default -> cps++;
            }
        }
        sb.append("qosweaver_agent_pointcuts{kind=\"entry\"} ").append(entries).append('\n');
        sb.append("qosweaver_agent_pointcuts{kind=\"request\"} ").append(requests).append('\n');
        sb.append("qosweaver_agent_pointcuts{kind=\"controlPoint\"} ").append(cps).append('\n');
        sb.append("qosweaver_agent_pointcuts{kind=\"aspect\"} ").append(aspects).append('\n');
        sb.append("qosweaver_agent_pointcuts{kind=\"progressPoint\"} ").append(pps).append('\n');
        sb.append("# HELP qosweaver_agent_unmatched_pointcuts Pointcuts that have selected no join point yet\n");
        sb.append("# TYPE qosweaver_agent_unmatched_pointcuts gauge\n");
        sb.append("qosweaver_agent_unmatched_pointcuts ").append(s.unmatched()).append('\n');
        sb.append("# HELP qosweaver_agent_join_points_woven Methods advised or call sites given a control or"
                + " progress point, per pointcut\n");
        sb.append("# TYPE qosweaver_agent_join_points_woven gauge\n");
        for (WeavingStats.PointcutStats p : s.pointcuts()) {
            sb.append("qosweaver_agent_join_points_woven{kind=\"").append(p.kind()).append("\",pointcut=\"")
                    .append(escape(p.location())).append("\"} ").append(p.joinPoints()).append('\n');
        }
        return sb.toString();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
