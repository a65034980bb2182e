package io.qosweaver.jmh;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The cost of the woven calls (STYLE.md 6: a control point with nothing pending is a read and a
 * branch, and allocates nothing), each against an empty-method baseline from the same run:
 * <ul>
 *   <li>{@code baseline}: a call of an empty, non-inlined static method (what the woven advice
 *       costs at the least);
 *   <li>{@code controlPointFastPath}: scheduler installed (importance), the thread inside a low
 *       scope, no high task running, so nothing pending;
 *   <li>{@code controlPointMeasuringIntervals}: the same with interval measurement on (a clock
 *       read and a histogram bucket per control point; off by default);
 *   <li>{@code controlPointNoScheduler}: nothing installed;
 *   <li>{@code controlPointInMonitorFastPath}: the control point woven inside {@code synchronized}
 *       (never suspends), nothing pending;
 *   <li>{@code progressPoint}: a progress point inside a low scope (a thread-state lookup and a
 *       counter increment, every time);
 *   <li>{@code enterExit}: entering and leaving a low scope (the per-request cost).
 * </ul>
 * Run (build first with {@code ./mvnw -B -q -pl jmh -am -DskipTests package}):
 * <pre>
 * java -jar jmh/target/qosweaver-jmh.jar ControlPointBenchmark -f 2 -wi 5 -w 1 -i 5 -r 1 -prof gc \
 *      -rf json -rff jmh/results/control-point-DATE.json
 * </pre>
 * Results and the machine they came from: {@code jmh/RESULTS.md}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ControlPointBenchmark {

    static SchedulerConfig config() {
        return new SchedulerConfig(List.of(
                new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("chart", Map.of("importance", "low"))),
                new SchedulerConfig.PolicySpec("importance", Map.of("lowLimit", "1")));
    }

    /** The importance scheduler installed for the trial. */
    @State(Scope.Benchmark)
    public static class Installed {
        @Setup(Level.Trial)
        public void install() {
            Scheduler.install(config());
        }

        @TearDown(Level.Trial)
        public void uninstall() {
            Scheduler.uninstall();
        }
    }

    /** The benchmark thread inside a low-importance scope. */
    @State(Scope.Thread)
    public static class InLowScope {
        @Setup(Level.Trial)
        public void enter(Installed installed) {
            QoS.enter("chart");
        }

        @TearDown(Level.Trial)
        public void exit() {
            QoS.exit();
        }
    }

    /** Inside a low scope with control-point interval measurement on (opt-in, Fig. 19/21 of the paper). */
    @State(Scope.Thread)
    public static class InLowScopeMeasuring {
        @Setup(Level.Trial)
        public void enter(Installed installed) {
            Scheduler.measureIntervals(true);
            QoS.enter("chart");
        }

        @TearDown(Level.Trial)
        public void exit() {
            QoS.exit();
            Scheduler.measureIntervals(false);
        }
    }

    /** No scheduler at all. */
    @State(Scope.Benchmark)
    public static class NotInstalled {
        @Setup(Level.Trial)
        public void uninstall() {
            Scheduler.uninstall();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static void empty() {
        // the baseline's callee
    }

    @Benchmark
    public void baseline() {
        empty();
    }

    @Benchmark
    public void controlPointFastPath(InLowScope scope) {
        QoS.controlPoint();
    }

    @Benchmark
    public void controlPointMeasuringIntervals(InLowScopeMeasuring scope) {
        QoS.controlPoint();
    }

    @Benchmark
    public void controlPointNoScheduler(NotInstalled none) {
        QoS.controlPoint();
    }

    @Benchmark
    public void controlPointInMonitorFastPath(InLowScope scope) {
        QoS.controlPointInMonitor();
    }

    @Benchmark
    public void progressPoint(InLowScope scope) {
        QoS.progressPoint();
    }

    @Benchmark
    public void enterExit(Installed installed) {
        QoS.enter("chart");
        QoS.exit();
    }
}
