package io.qosweaver.agent.runtime;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.unit.controlpoint.ControlPointUnit;
import io.qosweaver.agent.unit.entry.EntryUnit;
import io.qosweaver.agent.weaving.RehearsalTarget;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.PointcutParser;
import io.qosweaver.scheduler.QoS;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * Rehearses a change of weaving once, soon after start-up, on a thread of its own: weaves an entry
 * advice and a control point into {@link RehearsalTarget} (loaded, never run) with
 * retransformation, unweaves it, and raises and restores that thread's priority.
 *
 * <p>Why: the first change of a JVM otherwise loads the classes of the retransformation path (Byte
 * Buddy's) and JNA (for {@link WeavingPriority}) while the application may be saturating the CPUs.
 * Loading a class can invalidate what compiled code assumed about the class hierarchy, and the JVM
 * then deoptimizes that code by a handshake with every thread, which under the river monitor's
 * flash crowd took 150-1100 ms each (JFR: {@code HandshakeAllThreads} operations requested by the
 * command thread). In {@code bench swap --quick} the first command's round trip went from about
 * 2 s to 0.26 s with the rehearsal. While the application starts, the same loading is cheap.
 */
final class SwapRehearsal {
    private SwapRehearsal() {}

    /** @return whether the target was woven and unwoven (false: something refused; the agent runs on) */
    static boolean run(Instrumentation inst, AgentLog log) throws Exception {
        try (WeavingPriority priority = WeavingPriority.raise(log)) {
            String target = RehearsalTarget.class.getName();
            WeavingStats stats = new WeavingStats();
            var entry = EntryUnit.create("rehearsal", PointcutParser.parse("execution(* " + target + ".run(..))"),
                    stats.add("entry", "rehearsal", target));
            var controlPoint = new ControlPointUnit(List.of(new ControlPointUnit.Target(PointcutParser.parse(
                    "call(int java.lang.Object.hashCode()) && withincode(* " + target + ".run(..))"),
                    stats.add("controlPoint", "rehearsal", target))), log::debug);
            Weaving w = Weaving.install(inst, List.of(entry, controlPoint), stats, ElementMatchers.none(),
                    AgentBuilder.Listener.NoOp.INSTANCE, log, Weaving.bootstrapCopy(QoS.class));
            boolean woven = w.stats().retransformed() == 1;
            return w.reset() && woven;
        }
    }
}
