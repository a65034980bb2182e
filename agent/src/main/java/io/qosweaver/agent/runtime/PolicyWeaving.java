package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.ServletTaskClasses;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.agent.unit.controlpoint.ControlPointUnit;
import io.qosweaver.agent.unit.entry.EntryUnit;
import io.qosweaver.agent.unit.servlet.ServletUnit;
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
 * pointcut, one servlet unit for the {@code servletPath} task classes, one control-point unit for
 * all control points; installed together by {@link Weaving}.
 */
final class PolicyWeaving {
    private PolicyWeaving() {}

    static Weaving install(Instrumentation inst, PolicyFile policy, AgentLog log) {
        WeavingStats stats = new WeavingStats();
        List<InstrumentationUnit> units = new ArrayList<>();
        List<String> servletPatterns = new ArrayList<>();
        List<String> servletTaskClasses = new ArrayList<>();
        String servletLocation = null;
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                units.add(new EntryUnit(t.name(), t.entry(), stats.add("entry", t.location(), t.entryText())));
            } else {
                servletPatterns.add(t.servletPath());
                servletLocation = servletLocation == null ? t.location() : servletLocation;
                servletTaskClasses.add(t.name());
            }
        }
        if (!servletPatterns.isEmpty()) {
            ServletTaskClasses.configure(servletPatterns.toArray(new String[0]), servletTaskClasses.toArray(new String[0]));
            units.add(new ServletUnit(stats.add("servlet", servletLocation,
                    "Servlet.service(ServletRequest, ServletResponse) for " + servletPatterns)));
        }
        if (!policy.controlPoints().isEmpty()) {
            List<ControlPointUnit.Target> targets = new ArrayList<>();
            for (PolicyFile.ControlPointDef cp : policy.controlPoints()) {
                targets.add(new ControlPointUnit.Target(cp.pointcut(), stats.add("controlPoint", cp.location(), cp.text())));
            }
            units.add(new ControlPointUnit(targets));
        }
        // Woven code in named modules (JDK classes chosen by a withincode) calls QoS and the
        // bootstrap helpers, which sit in the bootstrap loader's unnamed module.
        return Weaving.install(inst, units, stats, ElementMatchers.none(), AgentBuilder.Listener.NoOp.INSTANCE, log,
                Weaving.bootstrapCopy(QoS.class), Weaving.bootstrapCopy(ServletTaskClasses.class));
    }
}
