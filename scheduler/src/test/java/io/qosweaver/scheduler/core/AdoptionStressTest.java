package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Threads entering and leaving nested scopes at random, passing control points and being
 * interrupted, while the scheduler is replaced every few milliseconds (as {@code Scheduler.install}
 * does: the old controller's {@link Controller#shutdownInto} the new one, then the new one is
 * published), with random lowLimits and now and then a configuration without the low class. Every
 * policy counts the roles it hears of (adopted, entered, left, detached): no role may be lost or
 * counted twice, so each one's count comes back to 0, and the last one ends with no member, no
 * runner, nobody flagged or parked, and its limit lifted (its high-thread count is 0).
 * {@code -Dqosweaver.stress.scale=N} runs N times longer with N times the threads.
 */
class AdoptionStressTest {
    private static final List<TaskClassSpec> WITHOUT_CHART = List.of(
            new TaskClassSpec("collect", Map.of("importance", "high")), new TaskClassSpec("update", Map.of()));

    /** Importance, counting per class the threads it holds a role for (under the controller's lock). */
    static final class Counting implements Policy {
        final Policy p;
        final Map<String, Integer> roles = new HashMap<>();
        long adopted;
        String broken;

        Counting(int lowLimit) {
            p = Policies.create("importance", PolicyContext.of("importance",
                    Map.of("lowLimit", Integer.toString(lowLimit)), Ticker.system(), w -> {}));
        }

        @Override public String name() { return p.name(); }
        @Override public int rank(TaskClassSpec s) { return p.rank(s); }
        @Override public void onStart(Control c) { p.onStart(c); }

        @Override
        public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
            if (cause == Cause.ADOPTED) {
                adopted++;
                if (from != null) {
                    broken = "adopted from " + from;
                }
            }
            if (from != null) {
                roles.merge(from.name(), -1, Integer::sum);
            }
            if (to != null) {
                roles.merge(to.name(), 1, Integer::sum);
            }
            if (roles.values().stream().anyMatch(n -> n < 0)) {
                broken = "negative role count " + roles + " after " + cause + " " + from + ">" + to;
            }
            p.onRoleChange(c, t, from, to, cause);
        }

        @Override
        public void onDetach(ThreadView t, TaskClass role) {
            roles.merge(role.name(), -1, Integer::sum);
            p.onDetach(t, role);
        }

        boolean balanced() {
            return roles.values().stream().allMatch(n -> n == 0);
        }
    }

    private volatile Controller current;

    @Test
    void repeatedReplacementsLoseAndDoubleNoRole() throws Exception {
        int scale = Math.max(1, Integer.getInteger("qosweaver.stress.scale", 1));
        int threads = 48 * scale;
        long runNanos = TimeUnit.MILLISECONDS.toNanos(2500) * scale;
        List<Controller> all = new ArrayList<>();
        List<Counting> policies = new ArrayList<>();
        Counting first = new Counting(1);
        current = Controller.create(first, Ticker.system(), Configs.riverClasses());
        all.add(current);
        policies.add(first);
        long errors = InternalErrors.count();

        AtomicReference<String> violation = new AtomicReference<>();
        AtomicLong cps = new AtomicLong(), interrupts = new AtomicLong();
        long deadline = System.nanoTime() + runNanos;
        String[] names = {"collect", "chart", "chart", "chart", "update", "nope"};

        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread th = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                ThreadState t = ThreadStates.current();
                while (System.nanoTime() < deadline) {
                    int depth = r.nextInt(1, 4);
                    for (int d = 0; d < depth; d++) {
                        Scopes.enter(t, current, names[r.nextInt(names.length)]);
                        int n = r.nextInt(0, 6);
                        for (int k = 0; k < n; k++) {
                            ControlPointCount.increment();
                            if (Pending.value() != 0) {
                                ControlPoints.slowPath(r.nextInt(20) == 0);
                            }
                            cps.incrementAndGet();
                            if (r.nextInt(4) == 0) {
                                LockSupport.parkNanos(r.nextInt(10_000, 300_000));
                            }
                        }
                    }
                    for (int d = 0; d < depth; d++) {
                        Scopes.exit(t);
                        if (r.nextInt(3) == 0) {
                            ControlPointCount.increment();
                            if (Pending.value() != 0) {
                                ControlPoints.slowPath(false);
                            }
                        }
                    }
                    if (t.depth() != 0) {
                        violation.compareAndSet(null, Thread.currentThread().getName() + " left depth " + t.depth());
                    }
                    if (r.nextBoolean()) {
                        Thread.interrupted(); // the application handles its interrupts now and then
                    }
                }
                Thread.interrupted();
            }, "adopt-stress-" + i);
            th.setDaemon(true);
            ts.add(th);
        }
        Thread interrupter = new Thread(() -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            while (System.nanoTime() < deadline) {
                ts.get(r.nextInt(ts.size())).interrupt();
                interrupts.incrementAndGet();
                LockSupport.parkNanos(500_000);
            }
        }, "interrupter");

        ts.forEach(Thread::start);
        interrupter.start();
        ThreadLocalRandom r = ThreadLocalRandom.current();
        int replacements = 0;
        long adoptedTotal = 0;
        while (System.nanoTime() < deadline) {
            LockSupport.parkNanos(r.nextInt(1_000_000, 8_000_000));
            Counting p = new Counting(r.nextInt(1, 4));
            Controller next = Controller.create(p, Ticker.system(),
                    r.nextInt(8) == 0 ? WITHOUT_CHART : Configs.riverClasses());
            Controller old = current;
            Map<String, Integer> adopted = old.shutdownInto(next); // as Scheduler.install: adopt, then publish
            current = next;
            all.add(next);
            policies.add(p);
            replacements++;
            adoptedTotal += adopted.values().stream().mapToInt(Integer::intValue).sum();
            String v = next.locked(() -> next.machine().checkInvariants());
            if (v != null) {
                violation.compareAndSet(null, v);
            }
        }
        long joinBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread t : ts) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            assertThat(t.isAlive()).as("%s finished (no thread left parked)", t.getName()).isFalse();
        }
        interrupter.join();

        Controller last = current;
        StateMachine m = last.machine();
        assertThat(violation.get()).as("invariant violation").isNull();
        for (Counting p : policies) {
            assertThat(p.broken).isNull();
        }
        Counting lastPolicy = policies.get(policies.size() - 1);
        assertThat(last.locked(() -> Map.copyOf(lastPolicy.roles)).values())
                .as("every role the last policy heard of was left exactly once").allMatch(n -> n == 0);
        for (int i = 0; i < policies.size() - 1; i++) {
            assertThat(policies.get(i).balanced()).as("policy %d: roles left or detached exactly once", i).isTrue();
        }
        last.locked(() -> {
            assertThat(m.checkInvariants()).isNull();
            for (TaskClassState c : m.classes()) {
                assertThat(c.members()).as("members of %s", c.name()).isZero();
            }
            assertThat(m.runQueueSize()).isZero();
            assertThat(m.waitQueueSize()).isZero();
            assertThat(m.parkedCount()).isZero();
            assertThat(m.limit()).as("no high thread left: the limit is lifted").isEqualTo(Control.UNLIMITED);
            return null;
        });
        assertThat(Pending.value()).as("nobody flagged").isZero();
        assertThat(InternalErrors.count()).isEqualTo(errors);
        long adoptedHeard = policies.stream().mapToLong(p -> p.adopted).sum();
        assertThat(adoptedTotal).as("the run adopted running tasks").isPositive();
        System.out.printf("adoption stress: %d threads, %d replacements, %d tasks adopted (%d observed),"
                        + " %d control points, %d interrupts%n",
                threads, replacements, adoptedTotal, adoptedHeard, cps.get(), interrupts.get());
        for (Controller c : all) {
            c.shutdown();
        }
    }
}
