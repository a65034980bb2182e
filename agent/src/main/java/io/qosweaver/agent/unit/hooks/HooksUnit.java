package io.qosweaver.agent.unit.hooks;

import io.qosweaver.agent.unit.callprobe.ProfiledPackages;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Idle hooks at every execution join point (and with {@code calls} every call join point) of the
 * included packages ({@link HookInserter}). Which classes: those the profiling mode would profile
 * with the same includes ({@link ProfiledPackages#profiled}), so that the agent's own plumbing and
 * the JDK's core are never hooked.
 */
public final class HooksUnit implements InstrumentationUnit {
    private final List<String> include;
    private final boolean calls;
    private final WeavingStats.PointcutStats executions;
    private final WeavingStats.PointcutStats callSites;
    private final WeavingStats.PointcutStats hookSites;

    /** Registers its three counters (executions, calls, hook sites) in {@code stats}. */
    public HooksUnit(List<String> include, boolean calls, WeavingStats stats) {
        this.include = List.copyOf(include);
        this.calls = calls;
        String where = String.join("+", this.include);
        this.executions = stats.add("hooks-execution", where, "execution(* " + where + "..*(..))");
        this.callSites = stats.add("hooks-call", where, calls ? "call(* *(..)) && within(" + where + "..*)" : "none");
        this.hookSites = stats.add("hooks-site", where, "hook instructions (entry, each return, each call)");
    }

    @Override
    public String name() {
        return "idle hooks at " + (calls ? "calls and executions" : "executions") + " in " + String.join("+", include);
    }

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
        return (b, type, loader, module, pd) -> b.visit(new HookInserter(calls,
                WeavingStats.classKey(type.getName(), loader), executions, callSites, hookSites));
    }

    /** Methods hooked (entry and exits). */
    public long executions() {
        return executions.joinPoints();
    }

    /** Call sites hooked. */
    public long calls() {
        return callSites.joinPoints();
    }

    /** Hook instructions inserted: one per entry, per return instruction and per call site. */
    public long hookSites() {
        return hookSites.joinPoints();
    }
}
