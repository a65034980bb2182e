package io.qosweaver.agent.unit.controlpoint;

import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.PointcutTypes;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Every control-point pointcut of a policy file, woven by one {@link ControlPointInserter}. */
public final class ControlPointUnit implements InstrumentationUnit {
    /** A pointcut and its counters. */
    public record Target(Pointcut pointcut, WeavingStats.PointcutStats stats) {}

    private final List<Target> targets;

    public ControlPointUnit(List<Target> targets) {
        this.targets = List.copyOf(targets);
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
        ControlPointInserter inserter = new ControlPointInserter(targets);
        return (b, type, loader, module, pd) -> b.visit(inserter);
    }
}
