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
 * Every control-point and progress-point pointcut of a policy file, woven by a
 * {@link ControlPointInserter} per class (both are calls inserted before a selected call
 * instruction). A control point at a call made while its method holds a monitor (a synchronized
 * method, or a call inside a {@code synchronized} block, found from the class file the class
 * loader serves) is woven as {@code QoS.controlPointInMonitor()}, which never suspends: a thread
 * suspended there would keep the monitor, and every thread that needs it would wait as well
 * (QoSWeaver 3.4). It is reported once per pointcut and method.
 */
public final class ControlPointUnit implements InstrumentationUnit {
    /**
     * A pointcut and its counters; {@code progress}: a progress point ({@code QoS.progressPoint()}),
     * else a control point.
     */
    public record Target(Pointcut pointcut, WeavingStats.PointcutStats stats, boolean progress) {
        /** A control point. */
        public Target(Pointcut pointcut, WeavingStats.PointcutStats stats) {
            this(pointcut, stats, false);
        }
    }

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
        long progress = targets.stream().filter(Target::progress).count();
        return "control points (" + (targets.size() - progress) + " pointcuts)"
                + (progress == 0 ? "" : " and progress points (" + progress + " pointcuts)");
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
                ClassFiles.synchronizedRegions(loader), this::inMonitor, WeavingStats.classKey(type.getName(), loader)));
    }

    private void inMonitor(Target t, String caller, String callee) {
        if (warned.add(t.stats().location() + " " + caller)) {
            monitorWarnings.accept("control point " + t.stats().location() + " is woven into " + caller
                    + " at a call to " + callee + " made while a monitor is held (a synchronized method or"
                    + " block): it never suspends a thread there, since a thread suspended with the monitor"
                    + " would make every thread that needs it wait too (QoSWeaver 3.4); choose a call outside"
                    + " the synchronized code for a control point that can suspend");
        }
    }
}
