package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.Aspects;
import io.qosweaver.agent.bootstrap.Jetty12Requests;
import io.qosweaver.agent.bootstrap.JettyChannelRequests;
import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.ServerPools;
import io.qosweaver.agent.bootstrap.ServletRequests;
import io.qosweaver.agent.bootstrap.TomcatRequests;
import io.qosweaver.agent.bootstrap.UndertowRequests;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.RequestSelector;
import io.qosweaver.agent.unit.aspect.AspectUnit;
import io.qosweaver.agent.unit.aspect.SignalAdvice;
import io.qosweaver.agent.unit.aspect.TimeoutAdvice;
import io.qosweaver.agent.unit.controlpoint.ControlPointUnit;
import io.qosweaver.agent.unit.entry.EntryUnit;
import io.qosweaver.agent.unit.jetty12.Jetty12Unit;
import io.qosweaver.agent.unit.jettychannel.JettyChannelUnit;
import io.qosweaver.agent.unit.serverpool.ServerPoolUnit;
import io.qosweaver.agent.unit.servlet.ServletUnit;
import io.qosweaver.agent.unit.tomcat.TomcatUnit;
import io.qosweaver.agent.unit.traceevent.TraceEventUnit;
import io.qosweaver.agent.unit.undertow.UndertowUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.scheduler.QoS;
import io.qosweaver.trace.Tracer;
import io.qosweaver.trace.app.UserTrace;
import io.qosweaver.trace.timeline.Level;
import java.lang.instrument.Instrumentation;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * A policy file's instrumentation units: one entry unit per task class with an {@code entry}
 * pointcut; for the task classes that select requests, the servlet unit ({@code request} and
 * {@code servletPath}) and the server units, Jetty 9.4 to 12, Tomcat and Undertow
 * ({@code request}); one control-point unit for all control and progress points; installed together by
 * {@link Weaving}; and, while a trace with the {@code user} level runs, a unit per {@code trace.events}
 * pointcut.
 */
final class PolicyWeaving {
    private PolicyWeaving() {}

    /**
     * One pointcut of a policy file as the weaving sees it: its label for the statistics and its
     * identity, what decides the bytecode woven for it. Two files whose identities are equal, in
     * order, weave the same bytecode, whatever lines they are on.
     */
    record Planned(WeavingStats.Label label, String identity) {}

    private static final String SERVERS = " in Jetty Server.handle, Tomcat CoyoteAdapter.service, Undertow"
            + " Connectors.executeRootHandler and Servlet.service";

    /**
     * The pointcuts of {@code policy} in the order {@link #install} weaves them: entries (task-class
     * order), the request classification (one, if any task class selects requests), control points,
     * progress points, bulkheads, semaphores (wait, then signal), synchronizations, time-outs, server
     * thread pools (Jetty's, then Tomcat's: their values are not woven, see {@link #configurePools}),
     * the pools watched ({@link #watchedPools}), trace events (only while a trace with user events runs).
     */
    static List<Planned> plan(PolicyFile policy) {
        return plan(policy, tracingUserEvents());
    }

    /** Whether the {@code trace.events} pointcuts are woven now: a trace with the user level runs. */
    static boolean tracingUserEvents() {
        return Tracer.running(Level.USER);
    }

    static List<Planned> plan(PolicyFile policy, boolean traceEvents) {
        List<Planned> out = new ArrayList<>();
        List<String> requestClasses = new ArrayList<>();
        String requestLocation = null;
        boolean byRequest = false;
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                // the entry advice names its task class
                out.add(planned("entry", t.location(), t.entryText(), t.name() + " " + t.entryText()));
            } else {
                requestClasses.add(t.name());
                requestLocation = requestLocation == null ? t.location() : requestLocation;
                byRequest |= t.servletPath() == null;
            }
        }
        if (!requestClasses.isEmpty()) {
            // which request selects which class is a table, not bytecode: only the servers woven count
            out.add(planned("request", requestLocation, requestClasses + (byRequest ? SERVERS : " in Servlet.service"),
                    byRequest ? "servers" : "servlet"));
        }
        for (PolicyFile.ControlPointDef cp : policy.controlPoints()) {
            out.add(planned("controlPoint", cp.location(), cp.text(), cp.text()));
        }
        for (PolicyFile.ProgressPointDef pp : policy.progressPoints()) {
            out.add(planned("progressPoint", pp.location(), pp.text(), pp.text()));
        }
        // aspects are registered under their location, which their woven code refers to by index
        for (PolicyFile.BulkheadDef b : policy.bulkheads()) {
            out.add(planned("bulkhead", b.location(), b.text(), b.location() + " " + b.limit() + (b.perCore() ? "x " : " ")
                    + b.queue() + " " + b.timeoutNanos() + " " + b.text()));
        }
        for (PolicyFile.SemaphoreDef d : policy.semaphores()) {
            String id = d.name() + " " + d.location() + " " + d.initial() + " " + d.maxWaitNanos();
            out.add(planned("semaphore-wait", d.location(), d.waitText(), id + " " + d.waitText()));
            out.add(planned("semaphore-signal", d.location(), d.signalText(), id + " " + d.signalText()));
        }
        for (PolicyFile.SynchronizeDef d : policy.synchronizations()) {
            out.add(planned("synchronize", d.location(), d.text(), d.location() + " " + d.text()));
        }
        for (PolicyFile.TimeoutDef d : policy.timeouts()) {
            out.add(planned("timeout", d.location(), d.text(), d.location() + " " + d.afterNanos() + " " + d.action()
                    + " " + d.text()));
        }
        for (PolicyFile.ThreadPoolDef d : policy.threadPools()) {
            if (!d.server().equals("tomcat")) {
                out.add(planned("threadPool", d.location(), "jetty " + ServerPoolUnit.JETTY, "jetty"));
            }
            if (!d.server().equals("jetty")) {
                out.add(planned("threadPool", d.location(), "tomcat " + ServerPoolUnit.TOMCAT, "tomcat"));
            }
        }
        for (String server : watchedPools(policy)) {
            out.add(planned(WeavingStats.POOL_WATCH, "(" + server + " pools, watched)", server + " "
                    + (server.equals("jetty") ? ServerPoolUnit.JETTY : ServerPoolUnit.TOMCAT), server));
        }
        if (traceEvents) {
            addTraceEvents(policy, out);
        }
        return out;
    }

    /**
     * The servers whose thread pools are watched, not sized ({@link PoolWatch}): with task classes
     * that select requests, Jetty's and Tomcat's, unless the {@code threadPools} section already
     * weaves them. A request waiting at entry holds the server thread that serves it.
     */
    static List<String> watchedPools(PolicyFile policy) {
        boolean requests = policy.taskClasses().stream().anyMatch(t -> t.entry() == null);
        if (!requests) {
            return List.of();
        }
        boolean jetty = false;
        boolean tomcat = false;
        for (PolicyFile.ThreadPoolDef d : policy.threadPools()) {
            jetty |= !d.server().equals("tomcat");
            tomcat |= !d.server().equals("jetty");
        }
        List<String> out = new ArrayList<>();
        if (!jetty) {
            out.add("jetty");
        }
        if (!tomcat) {
            out.add("tomcat");
        }
        return out;
    }

    private static void addTraceEvents(PolicyFile policy, List<Planned> out) {
        for (PolicyFile.TraceEventDef e : policy.traceEvents()) {
            out.add(planned("traceEvent", e.location(), e.text(), e.text()));
        }
    }

    private static Planned planned(String kind, String location, String text, String identity) {
        return new Planned(new WeavingStats.Label(kind, location, text), kind + " " + identity);
    }

    /** Whether {@code a} and {@code b} weave the same bytecode (a swap between them need not retransform). */
    static boolean sameWeaving(PolicyFile a, PolicyFile b) {
        return identities(plan(a)).equals(identities(plan(b)));
    }

    private static List<String> identities(List<Planned> plan) {
        List<String> out = new ArrayList<>();
        for (Planned p : plan) {
            out.add(p.identity());
        }
        return out;
    }

    /**
     * Makes {@code weaving}, installed for another file of the {@link #sameWeaving same weaving},
     * serve {@code next}: its requests' selectors and its statistics' locations.
     */
    static void adopt(Weaving weaving, PolicyFile next) {
        List<RequestTaskClasses.Selector> selectors = new ArrayList<>();
        List<WeavingStats.Label> labels = new ArrayList<>();
        for (Planned p : plan(next)) {
            labels.add(p.label());
        }
        for (PolicyFile.TaskClassDef t : next.taskClasses()) {
            if (t.entry() == null) {
                selectors.add(selector(t));
            }
        }
        if (!selectors.isEmpty()) {
            RequestTaskClasses.configure(selectors.toArray(new RequestTaskClasses.Selector[0]));
        }
        weaving.stats().relabel(labels);
        configurePools(next);
    }

    /**
     * The server pools' sizes of {@code policy} (per-core counts resolved here), given to every
     * pool known and to those found later; a server the file leaves out gets its own values back.
     */
    static void configurePools(PolicyFile policy) {
        int cores = Runtime.getRuntime().availableProcessors();
        ServerPools.Settings jetty = null;
        ServerPools.Settings tomcat = null;
        for (PolicyFile.ThreadPoolDef d : policy.threadPools()) {
            ServerPools.Settings s = new ServerPools.Settings(d.min() == null ? -1 : d.min().resolve(cores),
                    d.max().resolve(cores), d.idleTimeoutMillis());
            jetty = d.server().equals("tomcat") ? jetty : s;
            tomcat = d.server().equals("jetty") ? tomcat : s;
        }
        ServerPools.configure(jetty, tomcat);
    }

    static Weaving install(Instrumentation inst, PolicyFile policy, AgentLog log) {
        WeavingStats stats = new WeavingStats();
        Deque<WeavingStats.PointcutStats> planned = new ArrayDeque<>();
        boolean traceEvents = tracingUserEvents();
        for (Planned p : plan(policy, traceEvents)) {
            planned.add(stats.add(p.label()));
        }
        List<InstrumentationUnit> units = new ArrayList<>();
        List<RequestTaskClasses.Selector> selectors = new ArrayList<>();
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                units.add(EntryUnit.create(t.name(), t.entry(), take(planned, "entry")));
            } else {
                selectors.add(selector(t));
            }
        }
        if (!selectors.isEmpty()) {
            RequestTaskClasses.configure(selectors.toArray(new RequestTaskClasses.Selector[0]));
            // One count for every integration: the check after matchCheckSeconds warns only when
            // no supported server at all was seen, not for each server the application does not use.
            boolean byRequest = selectors.stream().anyMatch(s -> s.selectsByRequest());
            WeavingStats.PointcutStats woven = take(planned, "request");
            units.add(ServletUnit.create(woven));
            if (byRequest) {
                units.add(Jetty12Unit.create(woven));
                units.add(JettyChannelUnit.create(woven));
                units.add(TomcatUnit.create(woven));
                units.add(UndertowUnit.create(woven));
            }
        }
        List<ControlPointUnit.Target> targets = new ArrayList<>();
        for (PolicyFile.ControlPointDef cp : policy.controlPoints()) {
            targets.add(new ControlPointUnit.Target(cp.pointcut(), take(planned, "controlPoint")));
        }
        for (PolicyFile.ProgressPointDef pp : policy.progressPoints()) {
            targets.add(new ControlPointUnit.Target(pp.pointcut(), take(planned, "progressPoint"), true));
        }
        if (!targets.isEmpty()) {
            units.add(new ControlPointUnit(targets, log::loud));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        for (PolicyFile.BulkheadDef b : policy.bulkheads()) {
            int limit = b.perCore() ? Math.max(1, (int) Math.round(b.limit() * cores)) : (int) b.limit();
            int index = Aspects.bulkhead(b.location(), limit, b.queue(), b.timeoutNanos());
            units.add(AspectUnit.create("bulkhead " + b.location(), b.pointcut(), index, take(planned, "bulkhead")));
        }
        for (PolicyFile.SemaphoreDef d : policy.semaphores()) {
            String name = d.name() + " (" + d.location() + ")";
            int index = Aspects.signal(name, d.initial(), d.maxWaitNanos());
            units.add(AspectUnit.create("semaphore wait " + name, d.waitAt(), index, SignalAdvice.Wait.class,
                    take(planned, "semaphore-wait")));
            units.add(AspectUnit.create("semaphore signal " + name, d.signalAt(), index, SignalAdvice.Signal.class,
                    take(planned, "semaphore-signal")));
        }
        for (PolicyFile.SynchronizeDef d : policy.synchronizations()) {
            int index = Aspects.serializer(d.location());
            units.add(AspectUnit.create("synchronize " + d.location(), d.pointcut(), index, take(planned, "synchronize")));
        }
        for (PolicyFile.TimeoutDef d : policy.timeouts()) {
            boolean interrupt = d.action() == PolicyFile.TimeoutAction.INTERRUPT;
            int index = Aspects.timeout(d.location(), d.afterNanos(), interrupt);
            units.add(AspectUnit.create("timeout " + d.location(), d.pointcut(), index,
                    interrupt ? TimeoutAdvice.Interrupt.class : TimeoutAdvice.Fail.class, take(planned, "timeout")));
        }
        for (PolicyFile.ThreadPoolDef d : policy.threadPools()) {
            if (!d.server().equals("tomcat")) {
                units.add(ServerPoolUnit.jetty(take(planned, "threadPool")));
            }
            if (!d.server().equals("jetty")) {
                units.add(ServerPoolUnit.tomcat(take(planned, "threadPool")));
            }
        }
        for (String server : watchedPools(policy)) {
            units.add(server.equals("jetty") ? ServerPoolUnit.jetty(take(planned, WeavingStats.POOL_WATCH))
                    : ServerPoolUnit.tomcat(take(planned, WeavingStats.POOL_WATCH)));
        }
        if (traceEvents) {
            for (PolicyFile.TraceEventDef e : policy.traceEvents()) {
                units.add(TraceEventUnit.create(e.text(), e.pointcut(), take(planned, "traceEvent")));
            }
        }
        if (!planned.isEmpty()) {
            throw new IllegalStateException("planned pointcuts not woven: " + planned.size());
        }
        // Woven code in named modules (JDK classes chosen by a withincode) calls QoS and the
        // bootstrap helpers, which sit in the bootstrap loader's unnamed module.
        Weaving woven = Weaving.install(inst, units, stats, ElementMatchers.none(), AgentBuilder.Listener.NoOp.INSTANCE, log,
                Weaving.bootstrapCopy(QoS.class), Weaving.bootstrapCopy(RequestTaskClasses.class),
                Weaving.bootstrapCopy(ServletRequests.class), Weaving.bootstrapCopy(Jetty12Requests.class),
                Weaving.bootstrapCopy(JettyChannelRequests.class),
                Weaving.bootstrapCopy(TomcatRequests.class), Weaving.bootstrapCopy(UndertowRequests.class),
                Weaving.bootstrapCopy(Aspects.class), Weaving.bootstrapCopy(ServerPools.class),
                Weaving.bootstrapCopy(UserTrace.class));
        configurePools(policy); // once woven: a failed weaving leaves the pools as they were
        return woven;
    }

    /** The next planned pointcut's statistics; {@link #plan} and {@link #install} walk the file in one order. */
    private static WeavingStats.PointcutStats take(Deque<WeavingStats.PointcutStats> planned, String kind) {
        WeavingStats.PointcutStats s = planned.pollFirst();
        if (s == null || !s.kind().equals(kind)) {
            throw new IllegalStateException("weaving a " + kind + " where the plan has " + (s == null ? "nothing" : s.kind()));
        }
        return s;
    }

    /** A task class's row in the bootstrap table (which knows nothing of the policy model). */
    static RequestTaskClasses.Selector selector(PolicyFile.TaskClassDef t) {
        if (t.servletPath() != null) {
            return new RequestTaskClasses.Selector(t.name(), true, new String[] {t.servletPath()}, new String[0],
                    new String[0], new String[0], new String[0], 0);
        }
        RequestSelector r = t.request();
        int n = r.headers().size();
        String[] names = new String[n];
        String[] values = new String[n];
        String[] regexes = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = r.headers().get(i).name();
            values[i] = r.headers().get(i).value();
            regexes[i] = r.headers().get(i).regex();
        }
        return new RequestTaskClasses.Selector(t.name(), false, r.paths().toArray(new String[0]),
                r.methods().toArray(new String[0]), names, values, regexes, r.port());
    }
}
