package io.qosweaver.agent.unit.controlpoint;

import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.agent.weaving.ClassFiles;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.PointcutTypes;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Every control-point pointcut of a policy file, woven by a {@link ControlPointInserter} per class.
 * A control point woven at a call made while its method holds a monitor (a synchronized method, or
 * a call inside a {@code synchronized} block, found from the class file the class loader serves)
 * is reported once per pointcut and method: a thread suspended there keeps the monitor, and every
 * thread that needs it waits as well (QoSWeaver 3.4).
 */
public final class ControlPointUnit implements InstrumentationUnit {
    /** A pointcut and its counters. */
    public record Target(Pointcut pointcut, WeavingStats.PointcutStats stats) {}

    private final List<Target> targets;
    private final Consumer<String> monitorWarnings;
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /** @param monitorWarnings where a control point woven inside a monitor is reported */
    public ControlPointUnit(List<Target> targets, Consumer<String> monitorWarnings) {
        this.targets = List.copyOf(targets);
        this.monitorWarnings = monitorWarnings;
    }

    @Override
    public String name() {
        return "control points (" + targets.size() + " pointcuts)";
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        List<Pointcut> pointcuts = new ArrayList<>();
        for (Target t : targets) {
            pointcuts.add(t.pointcut());
        }
        return PointcutTypes.canMatch(pointcuts);
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        return (b, type, loader, module, pd) -> b.visit(new ControlPointInserter(targets,
                ClassFiles.synchronizedRegions(loader), this::inMonitor));
    }

    private void inMonitor(Target t, String caller, String callee) {
        if (warned.add(t.stats().location() + " " + caller)) {
            monitorWarnings.accept("control point " + t.stats().location() + " is woven into " + caller
                    + " at a call to " + callee + " made while a monitor is held (a synchronized method or"
                    + " block): a thread suspended there keeps the monitor, and every thread that needs it waits"
                    + " too (QoSWeaver 3.4); choose a call outside the synchronized code");
        }
    }
}
