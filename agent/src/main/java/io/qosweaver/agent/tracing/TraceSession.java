package io.qosweaver.agent.tracing;

import io.qosweaver.agent.bootstrap.ServerEvents;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.unit.jettyserver.JettyServerUnit;
import io.qosweaver.agent.unit.tomcatserver.TomcatServerUnit;
import io.qosweaver.agent.unit.undertowserver.UndertowServerUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.trace.TraceOptions;
import io.qosweaver.trace.Tracer;
import io.qosweaver.trace.app.ServerTrace;
import io.qosweaver.trace.timeline.Level;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Starts the tracer ({@code qosweaver trace}) from the agent's arguments and, when its
 * {@code server} level is on, weaves the server units (Jetty 12, Tomcat) into this JVM, classes
 * already loaded included. Links trace types, which live on the bootstrap class path: called only
 * once the bootstrap jar is appended.
 */
public final class TraceSession {
    /** The server units' weaving, once per JVM: it stays after its trace (see {@link #weaveServers}). */
    private static Weaving serverWeaving;

    private TraceSession() {}

    /**
     * Starts tracing as {@code rawArgs} ask and returns the arguments left for the scheduling
     * agent (empty when only a trace was asked for).
     *
     * @throws IllegalArgumentException bad trace arguments, an unwritable file, or a trace already
     *     running; the message says which
     */
    public static String start(String rawArgs, Instrumentation inst, AgentLog log) {
        TraceOptions.Split split = TraceOptions.split(rawArgs);
        if (split.options() == null) {
            return split.rest();
        }
        try {
            Tracer.start(split.options(), log::info);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (split.options().levels().contains(Level.SERVER) && inst != null) {
            weaveServers(inst, log);
        }
        return split.rest();
    }

    /**
     * The server units, as a weaving of their own beside any policy's: after the trace ends they
     * stay woven and cost one volatile read per join point ({@code ServerTrace} off); a later trace
     * of the same JVM uses them as they are.
     */
    static synchronized Weaving weaveServers(Instrumentation inst, AgentLog log) {
        if (serverWeaving != null) {
            // A second trace of this JVM (attached again): the units are there, and a second weaving would
            // stack a second transformer on the same methods and record every server event twice.
            log.info("trace: the server level is woven already (by an earlier trace of this JVM)");
            return serverWeaving;
        }
        WeavingStats stats = new WeavingStats();
        List<InstrumentationUnit> units = List.of(
                JettyServerUnit.create(stats.add("traceServer", "trace", "Jetty 9.4 to 12 connections and requests")),
                TomcatServerUnit.create(stats.add("traceServer", "trace", "Tomcat NIO and NIO2 connections and requests")),
                UndertowServerUnit.create(stats.add("traceServer", "trace", "Undertow connections and requests")));
        long t0 = System.nanoTime();
        try {
            Weaving w = Weaving.install(inst, units, stats, ElementMatchers.none(), AgentBuilder.Listener.NoOp.INSTANCE,
                    log, Weaving.bootstrapCopy(ServerEvents.class), Weaving.bootstrapCopy(ServerTrace.class));
            // Attached to a busy JVM, retransforming the loaded server classes can take seconds (it competes
            // with the application's threads): the server level begins only then, and the trace's reader
            // should know why its first seconds have no requests.
            // At a JVM's start no server class is loaded yet: "0 classes" then means "woven as they load"
            log.info("trace: the server level is woven (" + stats.classesWoven() + " classes loaded so far, "
                    + stats.retransformed() + " retransformed; the server's classes loaded later are woven as they"
                    + " load) " + (System.nanoTime() - t0) / 1_000_000 + " ms after the trace began;"
                    + " no server events before that");
            serverWeaving = w;
            return w;
        } catch (RuntimeException | LinkageError e) {
            log.loud("could not weave the trace's server level (" + e + "): it stays empty");
            return null;
        }
    }
}
