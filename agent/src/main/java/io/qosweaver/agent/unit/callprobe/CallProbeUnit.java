package io.qosweaver.agent.unit.callprobe;

import io.qosweaver.agent.weaving.ClassFiles;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The profiling probe (QoSWeaver 3.3): {@code CallProbe.record(callerId, calleeId)} before every
 * call instruction of every method of the included packages ({@link CallProbeInserter}).
 */
public final class CallProbeUnit implements InstrumentationUnit {
    private final List<String> include;
    private final CallProbeInserter inserter;

    public CallProbeUnit(List<String> include, SignatureTable table) {
        this.include = List.copyOf(include);
        this.inserter = new CallProbeInserter(table);
    }

    @Override
    public String name() {
        return "call probe in " + String.join("+", include);
    }

    /**
     * The classes whose methods get the probe: in an included package, never in a denied one, and
     * JDK classes only through an include that names their JDK name space ({@link ProfiledPackages}).
     * Interfaces too: their default and static methods have code.
     */
    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                return ProfiledPackages.profiled(t.getName(), include);
            }
        };
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        return (b, type, loader, module, pd) -> b.visit(inserter.withRegions(ClassFiles.synchronizedRegions(loader)));
    }

    /** Call sites given the probe so far. */
    public long callSites() {
        return inserter.callSites.get();
    }
}
