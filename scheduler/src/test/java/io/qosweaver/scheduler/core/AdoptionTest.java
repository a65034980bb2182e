package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Adoption of running tasks when a scheduler replaces another ({@link Controller#shutdownInto}):
 * the river monitor's {@code ctl set policy.lowLimit=2} while a collection runs, step by step on a
 * fake clock with several thread records (nothing parks here).
 */
class AdoptionTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private final List<Controller> controllers = new ArrayList<>();
    private final List<String> heard = new ArrayList<>();

    @AfterEach
    void tearDown() {
        for (Controller c : controllers) {
            c.shutdown();
        }
        assertThat(Pending.value()).as("every flag cleared by shutdown").isZero();
    }

    private Controller importance(int lowLimit, List<TaskClassSpec> classes) {
        Policy p = Policies.create("importance",
                PolicyContext.of("importance", Map.of("lowLimit", Integer.toString(lowLimit)), clock, w -> {}));
        Policy recording = new Policy() { // importance, recording what it hears
            @Override public String name() { return p.name(); }
            @Override public int rank(TaskClassSpec s) { return p.rank(s); }
            @Override public void onStart(Control c) { p.onStart(c); }
            @Override public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
                heard.add(lowLimit + " " + cause + " " + (from == null ? "-" : from.name()) + ">"
                        + (to == null ? "-" : to.name()));
                p.onRoleChange(c, t, from, to, cause);
            }
        };
        Controller c = Controller.create(recording, clock, classes);
        controllers.add(c);
        return c;
    }

    private Controller importance(int lowLimit) {
        return importance(lowLimit, Configs.riverClasses());
    }

    private static ThreadState state() {
        return new ThreadState(Thread.currentThread());
    }

    private static long flagged(ThreadState... ts) {
        return Stream.of(ts).filter(t -> t.yield).count();
    }

    private static void invariants(Controller c) {
        assertThat(c.machine().checkInvariants()).isNull();
    }

    @Test
    void aHighTaskRunningAtTheReplacementKeepsTheNewLowLimitApplied() {
        Controller old = importance(1);
        ThreadState h = state(), a = state(), b = state(), d = state();
        Scopes.enter(h, old, "collect");
        Scopes.enter(a, old, "chart");
        Scopes.enter(b, old, "chart");
        Scopes.enter(d, old, "chart");
        assertThat(flagged(a, b, d)).as("lowLimit 1 under the old one").isEqualTo(2);

        Controller next = importance(2);
        Map<String, Integer> adopted = old.shutdownInto(next);

        assertThat(adopted).containsExactly(Map.entry("collect", 1), Map.entry("chart", 3));
        assertThat(h.role).isSameAs(next.machine().classOrUnknown("collect"));
        assertThat(next.machine().limit()).as("the new policy sees the running collection").isEqualTo(2);
        assertThat(flagged(a, b, d)).as("two low threads run, one is flagged under the new one").isEqualTo(1);
        assertThat(next.machine().runQueueSize()).isEqualTo(2);
        assertThat(heard).contains("2 ADOPTED ->collect", "2 ADOPTED ->chart");
        invariants(next);

        // a low thread that enters now waits too: the limit holds because a high task runs
        ThreadState late = state();
        Scopes.enter(late, next, "chart");
        assertThat(late.yield).isTrue();

        Scopes.exit(late);
        Scopes.exit(a);
        Scopes.exit(b);
        Scopes.exit(d);
        Scopes.exit(h);
        invariants(next);
    }

    @Test
    void theAdoptedHighTasksExitReleasesTheLowThreadsUnderTheNewOne() {
        Controller old = importance(1);
        ThreadState h = state(), a = state(), b = state(), d = state();
        Scopes.enter(h, old, "collect");
        Scopes.enter(a, old, "chart");
        Scopes.enter(b, old, "chart");
        Scopes.enter(d, old, "chart");
        Controller next = importance(1);
        old.shutdownInto(next);
        assertThat(flagged(a, b, d)).isEqualTo(2);

        Scopes.exit(h); // the exit pops the old entry and reaches the new scheduler
        TaskClassState collect = next.machine().classOrUnknown("collect");
        assertThat(h.role).isNull();
        assertThat(collect.members()).isZero();
        assertThat(collect.completed()).as("the adopted task completed under the new one").isEqualTo(1);
        assertThat(heard).contains("1 SCOPE collect>-");
        assertThat(next.machine().limit()).isEqualTo(Control.UNLIMITED);
        assertThat(flagged(a, b, d)).as("every low thread released").isZero();

        Scopes.exit(a);
        Scopes.exit(b);
        Scopes.exit(d);
        assertThat(next.machine().classOrUnknown("chart").members()).isZero();
        assertThat(next.machine().runQueueSize()).isZero();
        invariants(next);
    }

    @Test
    void aLowThreadInsideItsScopeAtTheChangeCountsAgainstTheNewLimit() {
        Controller old = importance(5);
        ThreadState a = state(), b = state(), h = state();
        Scopes.enter(a, old, "chart");
        Scopes.enter(b, old, "chart");
        Controller next = importance(1);
        old.shutdownInto(next);
        assertThat(flagged(a, b)).as("no high task yet: both run").isZero();

        Scopes.enter(h, next, "collect");
        assertThat(next.machine().limit()).isEqualTo(1);
        assertThat(flagged(a, b)).as("the adopted low threads are held to the new limit").isEqualTo(1);
        assertThat(next.machine().runQueueSize()).isEqualTo(1);

        Scopes.exit(h);
        Scopes.exit(a);
        Scopes.exit(b);
        assertThat(next.machine().classOrUnknown("chart").members()).isZero();
        invariants(next);
    }

    @Test
    void aClassMissingFromTheNewConfigurationStaysInert() {
        Controller old = importance(1);
        ThreadState h = state(), a = state();
        Scopes.enter(h, old, "collect");
        Scopes.enter(a, old, "chart");
        Controller next = importance(1, List.of(new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("report", Map.of("importance", "low"))));
        heard.clear(); // what the old policy heard
        Map<String, Integer> adopted = old.shutdownInto(next);

        assertThat(adopted).containsExactly(Map.entry("collect", 1));
        assertThat(a.role).as("chart: no class of that name any more").isNull();
        assertThat(a.yield).isFalse();
        Scopes.enter(a, next, "report"); // nested: the inert chart entry stays below it
        assertThat(a.role).isSameAs(next.machine().classOrUnknown("report"));
        assertThat(a.yield).as("report is low and a collection runs").isFalse(); // lowLimit 1: the only low one
        Scopes.exit(a);
        Scopes.exit(a); // pops the inert chart entry: nothing reaches the new scheduler
        assertThat(a.depth()).isZero();
        assertThat(a.role).isNull();
        assertThat(heard).as("the new policy never hears of chart").noneMatch(s -> s.contains("chart"));
        Scopes.exit(h);
        assertThat(next.machine().classOrUnknown("collect").members()).isZero();
        invariants(next);
    }

    @Test
    void nestedScopesAreResolvedThroughTheSuccessorsAtTheOwnersNextExit() {
        Controller old = importance(1);
        ThreadState t = state(), h = state();
        Scopes.enter(h, old, "collect");
        Scopes.enter(t, old, "chart");
        Scopes.enter(t, old, "collect"); // role collect (high), chart below it
        Controller next = importance(1);
        old.shutdownInto(next);
        ThreadState other = state();
        Scopes.enter(other, next, "chart");

        Scopes.exit(t); // back to the adopted chart entry: a low role under the new scheduler
        assertThat(t.role).isSameAs(next.machine().classOrUnknown("chart"));
        assertThat(next.machine().classOrUnknown("chart").members()).isEqualTo(2);
        assertThat(flagged(t, other)).as("one low runner while h's collection runs").isEqualTo(1);
        Scopes.exit(t);
        Scopes.exit(other);
        Scopes.exit(h);
        assertThat(next.machine().runQueueSize()).isZero();
        assertThat(next.machine().classOrUnknown("chart").members()).isZero();
        invariants(next);
    }

    @Test
    void aChainOfReplacementsHandsTheTaskToTheLastOne() {
        Controller first = importance(1);
        ThreadState h = state();
        Scopes.enter(h, first, "collect");
        Controller second = importance(2);
        first.shutdownInto(second);
        Controller third = importance(3);
        second.shutdownInto(third);
        assertThat(h.role).isSameAs(third.machine().classOrUnknown("collect"));
        assertThat(third.machine().limit()).isEqualTo(3);
        Scopes.exit(h);
        assertThat(third.machine().limit()).isEqualTo(Control.UNLIMITED);
        assertThat(third.machine().classOrUnknown("collect").members()).isZero();
    }

    @Test
    void anOwnersChangeThatReachesAReplacedControllerIsRetriedAgainstTheSuccessor() {
        Controller old = importance(1);
        ThreadState h = state();
        Scopes.enter(h, old, "collect");
        TaskClassState oldCollect = old.machine().classOrUnknown("collect");
        Controller next = importance(1);
        old.shutdownInto(next);
        // the owner computed its target before the replacement: the old controller refuses it
        assertThat(old.change(h, null)).isFalse();
        assertThat(h.role).as("left as the installer set it").isSameAs(next.machine().classOrUnknown("collect"));
        // and a late enter through the old controller (Scheduler.current not yet switched) lands in the new one
        ThreadState a = state();
        Scopes.enter(a, old, "chart");
        assertThat(a.role).isSameAs(next.machine().classOrUnknown("chart"));
        assertThat(oldCollect.members()).isZero();
        Scopes.exit(a);
        Scopes.exit(h);
        assertThat(next.machine().classOrUnknown("collect").members()).isZero();
        assertThat(next.machine().classOrUnknown("chart").members()).isZero();
    }

    @Test
    void anUninstallAdoptsNothing() {
        Controller old = importance(1);
        ThreadState h = state();
        Scopes.enter(h, old, "collect");
        assertThat(old.shutdownInto(null)).isEmpty();
        assertThat(h.role).isNull();
        Controller next = importance(1);
        assertThat(old.shutdownInto(next)).as("already closed").isEmpty();
        Scopes.exit(h);
        assertThat(next.machine().classOrUnknown("collect").members()).isZero();
    }
}
