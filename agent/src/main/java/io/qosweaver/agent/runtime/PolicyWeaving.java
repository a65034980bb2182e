package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.Aspects;
import io.qosweaver.agent.bootstrap.Jetty12Requests;
import io.qosweaver.agent.bootstrap.JettyChannelRequests;
import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.ServletRequests;
import io.qosweaver.agent.bootstrap.TomcatRequests;
import io.qosweaver.agent.bootstrap.UndertowRequests;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.RequestSelector;
import io.qosweaver.agent.unit.aspect.AspectUnit;
import io.qosweaver.agent.unit.aspect.SignalAdvice;
import io.qosweaver.agent.unit.controlpoint.ControlPointUnit;
import io.qosweaver.agent.unit.entry.EntryUnit;
import io.qosweaver.agent.unit.jetty12.Jetty12Unit;
import io.qosweaver.agent.unit.jettychannel.JettyChannelUnit;
import io.qosweaver.agent.unit.servlet.ServletUnit;
import io.qosweaver.agent.unit.tomcat.TomcatUnit;
import io.qosweaver.agent.unit.undertow.UndertowUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.scheduler.QoS;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * A policy file's instrumentation units: one entry unit per task class with an {@code entry}
 * pointcut; for the task classes that select requests, the servlet unit ({@code request} and
 * {@code servletPath}) and the server units, Jetty 9.4 to 12, Tomcat and Undertow
 * ({@code request}); one control-point unit for all control and progress points; installed together by
 * {@link Weaving}.
 */
final class PolicyWeaving {
    private PolicyWeaving() {}

    static Weaving install(Instrumentation inst, PolicyFile policy, AgentLog log) {
        WeavingStats stats = new WeavingStats();
        List<InstrumentationUnit> units = new ArrayList<>();
        List<RequestTaskClasses.Selector> selectors = new ArrayList<>();
        List<String> requestClasses = new ArrayList<>();
        String requestLocation = null;
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                units.add(EntryUnit.create(t.name(), t.entry(), stats.add("entry", t.location(), t.entryText())));
            } else {
                selectors.add(selector(t));
                requestClasses.add(t.name());
                requestLocation = requestLocation == null ? t.location() : requestLocation;
            }
        }
        if (!selectors.isEmpty()) {
            RequestTaskClasses.configure(selectors.toArray(new RequestTaskClasses.Selector[0]));
            // One count for every integration: the check after matchCheckSeconds warns only when
            // no supported server at all was seen, not for each server the application does not use.
            boolean byRequest = selectors.stream().anyMatch(s -> s.selectsByRequest());
            WeavingStats.PointcutStats woven = stats.add("request", requestLocation, requestClasses
                    + (byRequest ? " in Jetty Server.handle, Tomcat CoyoteAdapter.service, Undertow"
                            + " Connectors.executeRootHandler and Servlet.service" : " in Servlet.service"));
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
            targets.add(new ControlPointUnit.Target(cp.pointcut(), stats.add("controlPoint", cp.location(), cp.text())));
        }
        for (PolicyFile.ProgressPointDef pp : policy.progressPoints()) {
            targets.add(new ControlPointUnit.Target(pp.pointcut(),
                    stats.add("progressPoint", pp.location(), pp.text()), true));
        }
        if (!targets.isEmpty()) {
            units.add(new ControlPointUnit(targets, log::loud));
        }
        int cores = Runtime.getRuntime().availableProcessors();
        for (PolicyFile.BulkheadDef b : policy.bulkheads()) {
            int limit = b.perCore() ? Math.max(1, (int) Math.round(b.limit() * cores)) : (int) b.limit();
            int index = Aspects.bulkhead(b.location(), limit, b.queue(), b.timeoutNanos());
            units.add(AspectUnit.create("bulkhead " + b.location(), b.pointcut(), index,
                    stats.add("bulkhead", b.location(), b.text())));
        }
        for (PolicyFile.SemaphoreDef d : policy.semaphores()) {
            String name = d.name() + " (" + d.location() + ")";
            int index = Aspects.signal(name, d.initial(), d.maxWaitNanos());
            units.add(AspectUnit.create("semaphore wait " + name, d.waitAt(), index, SignalAdvice.Wait.class,
                    stats.add("semaphore-wait", d.location(), d.waitText())));
            units.add(AspectUnit.create("semaphore signal " + name, d.signalAt(), index, SignalAdvice.Signal.class,
                    stats.add("semaphore-signal", d.location(), d.signalText())));
        }
        for (PolicyFile.SynchronizeDef d : policy.synchronizations()) {
            int index = Aspects.serializer(d.location());
            units.add(AspectUnit.create("synchronize " + d.location(), d.pointcut(), index,
                    stats.add("synchronize", d.location(), d.text())));
        }
        // Woven code in named modules (JDK classes chosen by a withincode) calls QoS and the
        // bootstrap helpers, which sit in the bootstrap loader's unnamed module.
        return Weaving.install(inst, units, stats, ElementMatchers.none(), AgentBuilder.Listener.NoOp.INSTANCE, log,
                Weaving.bootstrapCopy(QoS.class), Weaving.bootstrapCopy(RequestTaskClasses.class),
                Weaving.bootstrapCopy(ServletRequests.class), Weaving.bootstrapCopy(Jetty12Requests.class),
                Weaving.bootstrapCopy(JettyChannelRequests.class),
                Weaving.bootstrapCopy(TomcatRequests.class), Weaving.bootstrapCopy(UndertowRequests.class),
                Weaving.bootstrapCopy(Aspects.class));
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
