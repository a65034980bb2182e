package io.qosweaver.agent.unit.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.bootstrap.Hooks;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.testtargets.hooks.HookTarget;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.Map;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** In-process weaving of the hooks mode, with an agent attached to the test JVM, and the class-byte taps around it. */
class HooksUnitTest {
    private static final String PKG = "io.qosweaver.testtargets.hooks";
    private static final String LATE = "io.qosweaver.testtargets.hookslate";
    private static Instrumentation inst;
    private Weaving weaving;
    private ClassBytesTaps taps;

    @BeforeAll
    static void attach() {
        inst = ByteBuddyAgent.install();
        new HookTarget().add(1, 2); // loaded before weaving: woven by retransformation
    }

    @AfterEach
    void unweave() {
        Hooks.attach(false);
        if (weaving != null) {
            weaving.reset();
        }
        if (taps != null) {
            taps.uninstall(inst);
        }
    }

    private HooksUnit weave(boolean calls) {
        return weave(calls, List.of(PKG));
    }

    private HooksUnit weave(boolean calls, List<String> include) {
        taps = new ClassBytesTaps();
        taps.installFirst(inst);
        WeavingStats stats = new WeavingStats();
        HooksUnit unit = new HooksUnit(include, calls, stats);
        weaving = Weaving.install(inst, List.of(unit), stats, ElementMatchers.none(), AgentBuilder.Listener.NoOp.INSTANCE,
                new AgentLog(new PrintStream(new ByteArrayOutputStream()), false));
        taps.installLast(inst);
        weaving.retransformAgain(); // as the agent does: the last tap sees the classes woven at installation
        return unit;
    }

    @Test
    void everyExecutionAndCallJoinPointIsCountedAndHooked() {
        HooksUnit unit = weave(true);
        // HookTarget: <init>, add, twice; returns 1 + 1 + 2; calls Object.<init>, addExact, concat
        assertThat(unit.executions()).isEqualTo(3);
        assertThat(unit.calls()).isEqualTo(3);
        assertThat(unit.hookSites()).isEqualTo(3 + 4 + 3);

        Hooks.attach(true);
        assertThat(new HookTarget().twice("ab")).isEqualTo("abab");
        assertThat(Hooks.fired()).as("entered, exited, called: <init> and twice").containsExactly(2, 2, 2);
    }

    @Test
    void executionHooksAloneHookNoCall() {
        HooksUnit unit = weave(false);
        assertThat(unit.executions()).isEqualTo(3);
        assertThat(unit.calls()).isZero();
        assertThat(unit.hookSites()).isEqualTo(3 + 4);
        Hooks.attach(true);
        new HookTarget().add(2, 3);
        assertThat(Hooks.fired()).containsExactly(2, 2, 0);
    }

    @Test
    void anIdleHookChangesNoResultNorException() {
        weave(true);
        HookTarget t = new HookTarget();
        assertThat(t.add(40, 2)).isEqualTo(42);
        assertThat(t.twice(null)).isEmpty();
        assertThat(t.twice("x")).isEqualTo("xx");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.add(Integer.MAX_VALUE, 1))
                .isInstanceOf(ArithmeticException.class);
        assertThat(Hooks.fired()).as("idle: nothing attached, nothing counted").containsExactly(0, 0, 0);
    }

    @Test
    void wovenClassesDifferFromTheirOriginalUntilUnwovenThenAreByteIdentical() {
        weave(true, List.of(PKG, LATE));
        assertThat(io.qosweaver.testtargets.hookslate.LoadedLate.square(3)).isEqualTo(9); // woven at its first definition
        String retransformed = HookTarget.class.getName();
        String atLoad = io.qosweaver.testtargets.hookslate.LoadedLate.class.getName();
        assertThat(taps.identicalNow(retransformed)).as("woven by retransformation").isFalse();
        assertThat(taps.identicalNow(atLoad)).as("woven at its first definition").isFalse();
        assertThat(taps.identicalNow(String.class.getName())).as("never woven: not recorded").isNull();
        Map<String, Object> woven = taps.report();
        assertThat(woven).containsEntry("classesWoven", 2).containsEntry("identicalNow", 0);
        assertThat((Long) woven.get("wovenBytes")).isGreaterThan((Long) woven.get("originalBytes"));

        assertThat(weaving.reset()).isTrue();
        weaving = null;
        assertThat(taps.identicalNow(retransformed)).isTrue();
        assertThat(taps.identicalNow(atLoad)).isTrue();
        assertThat(taps.report()).containsEntry("identicalNow", 2).containsEntry("differingNow", 0);
        assertThat(new HookTarget().add(1, 1)).isEqualTo(2);
    }

    @Test
    void theMetaspaceOfBothVersionsIsMeasuredForEveryWovenClassAndTheCopiesAreNeverWoven() {
        HooksUnit unit = weave(true);
        MetaspaceCost.Result r = taps.metaspaceCost(3);
        assertThat(unit.executions()).as("the measured copies were not hooked").isEqualTo(3);
        assertThat(taps.report()).as("nor recorded").containsEntry("classesWoven", 1);
        assertThat(r.classes()).isEqualTo(1);
        assertThat(r.failed()).isZero();
        assertThat(java.util.Arrays.stream(r.originalRuns()).boxed().toList()).hasSize(3).allMatch(b -> b > 0);
        assertThat(java.util.Arrays.stream(r.wovenRuns()).boxed().toList()).hasSize(3).allMatch(b -> b > 0);
    }
}
