package io.qosweaver.agent.startup;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.profiling.ProfilingArgs;
import io.qosweaver.agent.profiling.ProfilingSession;
import io.qosweaver.agent.runtime.AgentArgs;
import io.qosweaver.agent.runtime.AgentRuntime;
import io.qosweaver.agent.runtime.HooksArgs;
import io.qosweaver.agent.tracing.TraceSession;
import java.lang.instrument.Instrumentation;

/**
 * Start-up order matters: arguments first, then the scheduler and the bootstrap helpers onto the
 * bootstrap class path, and only then {@link AgentRuntime}, the first class that links scheduler
 * types (and {@link TraceSession}, the first that links trace types). This class itself links none.
 */
public final class AgentStarter {
    /** A scheduling agent runs in this JVM: a second start (attach, or -javaagent twice) is refused. */
    private static final java.util.concurrent.atomic.AtomicBoolean SCHEDULING = new java.util.concurrent.atomic.AtomicBoolean();

    private AgentStarter() {}

    /**
     * Byte Buddy's Nexus (class initializers for types that need them) is of no use to us: the
     * agent never changes a class's format. Setting it up touches {@code sun.misc.Unsafe}, which JDK
     * 24+ reports as a terminally deprecated call on every start. The property name is the shaded
     * copy's own (the shade plugin relocates the constant with the package), so an application's
     * own Byte Buddy is unaffected.
     */
    private static void disableByteBuddyNexus() {
        if (System.getProperty(net.bytebuddy.dynamic.Nexus.PROPERTY) == null) {
            System.setProperty(net.bytebuddy.dynamic.Nexus.PROPERTY, "true");
        }
    }

    /** Profiling mode: bad arguments stop a premain JVM; anything else of ours never does. */
    private static void startProfiling(String rawArgs, Instrumentation inst, AgentLog log) {
        disableByteBuddyNexus();
        ProfilingArgs args;
        try {
            args = ProfilingArgs.parse(rawArgs);
        } catch (IllegalArgumentException e) {
            log.error(e.getMessage());
            throw new IllegalArgumentException("[qosweaver] " + e.getMessage());
        }
        if (args.debug()) {
            log = AgentLog.stderr(true);
        }
        try {
            BootstrapInjector.inject(inst, log);
        } catch (Exception | LinkageError e) {
            log.loud("could not put the profiler on the bootstrap class path (" + e + "); NOT profiling");
            return;
        }
        try {
            ProfilingSession.start(args, inst, log);
        } catch (RuntimeException | LinkageError e) {
            log.loud("internal error while starting the profiler (" + e + "); NOT profiling");
            e.printStackTrace();
        }
    }

    /** Whether the raw arguments ask for a trace ({@code trace=}); a string test that links no trace type. */
    static boolean asksForTrace(String raw) {
        if (raw == null) {
            return false;
        }
        for (String part : raw.split(",")) {
            if (part.strip().startsWith("trace")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Tracing mode, alone or beside a policy: the tracer starts first, so that it sees the
     * scheduler's start. Bad trace arguments or an unwritable file stop a premain JVM, like a bad
     * policy; returns the arguments left for the scheduling agent.
     */
    private static String startTracing(String rawArgs, Instrumentation inst, AgentLog log) {
        try {
            BootstrapInjector.inject(inst, log);
        } catch (Exception | LinkageError e) {
            log.loud("could not put the tracer on the bootstrap class path (" + e + "); NOT tracing");
            return withoutTraceKeys(rawArgs);
        }
        if (io.qosweaver.platform.NativeThreads.get() == io.qosweaver.platform.NativeThreads.fallback()) {
            // lazy (JNA loads at first use): lets the tracer's OS reader raise its own priority, as root
            try {
                io.qosweaver.agent.natives.NativePriorities.register(log);
            } catch (RuntimeException | LinkageError e) {
                log.debug("native thread priorities unavailable: " + e);
            }
        }
        try {
            String rest = TraceSession.start(rawArgs, inst, log);
            ApiRebinder.rebind(inst, log); // the Java API's user events, in an application attached to
            return rest;
        } catch (IllegalArgumentException e) {
            log.error(e.getMessage());
            throw new IllegalArgumentException("[qosweaver] " + e.getMessage());
        }
    }

    /** The arguments without the trace keys, when the tracer cannot be reached to parse them. */
    static String withoutTraceKeys(String raw) {
        StringBuilder b = new StringBuilder();
        for (String part : raw.split(",")) {
            if (!part.strip().startsWith("trace")) {
                b.append(b.length() == 0 ? "" : ",").append(part);
            }
        }
        return b.toString();
    }

    public static void start(String rawArgs, Instrumentation inst) {
        disableByteBuddyNexus();
        AgentLog log = AgentLog.stderr(false);
        if (asksForTrace(rawArgs)) {
            rawArgs = startTracing(rawArgs, inst, log);
            if (rawArgs.isBlank()) {
                return; // a trace only: nothing but the trace's own server level is woven
            }
        }
        if (ProfilingArgs.isProfile(rawArgs)) {
            startProfiling(rawArgs, inst, log);
            return;
        }
        AgentArgs args;
        HooksArgs hooks;
        try {
            HooksArgs.Split split = HooksArgs.split(rawArgs);
            hooks = split.hooks();
            args = AgentArgs.parse(split.rest(), !hooks.any());
        } catch (IllegalArgumentException e) {
            log.error(e.getMessage());
            throw new IllegalArgumentException("[qosweaver] " + e.getMessage());
        }
        if (args.debug()) {
            log = AgentLog.stderr(true);
        }
        if (!SCHEDULING.compareAndSet(false, true)) {
            String m = "the QoSWeaver agent already runs in this JVM; change its policy with qosweaver ctl "
                    + ProcessHandle.current().pid() + " swap FILE";
            log.error(m);
            throw new IllegalStateException("[qosweaver] " + m);
        }
        try {
            BootstrapInjector.inject(inst, log);
        } catch (Exception | LinkageError e) {
            // a failure of ours, not of the policy: the application still runs (fail open)
            log.loud("could not put the scheduler on the bootstrap class path (" + e
                    + "); the application starts UNSCHEDULED");
            return;
        }
        try {
            AgentRuntime.start(args, hooks, inst, log);
            ApiRebinder.rebind(inst, log); // an application that used the Java API before we came
        } catch (AgentRuntime.PolicyStartupException e) {
            SCHEDULING.set(false); // nothing runs: a corrected file may be attached
            throw e;
        } catch (RuntimeException | LinkageError e) {
            log.loud("internal error while starting (" + e + "); the application starts UNSCHEDULED");
            e.printStackTrace();
        }
    }
}
