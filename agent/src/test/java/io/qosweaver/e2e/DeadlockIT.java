package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deadlock-aware policy end to end, in a child JVM under {@code -javaagent}: the progress
 * point and the control point are woven into {@link E2eHostageApp}, whose low thread is suspended
 * while it holds a {@code ReentrantLock} the high thread needs (no monitor at the control point,
 * so the weaver cannot see the lock). Under the importance policy the program deadlocks; under the
 * deadlock-aware policy it completes.
 */
class DeadlockIT {
    @TempDir
    Path dir;
    private ChildJvms jvms;

    @AfterEach
    void stop() {
        if (jvms != null) {
            jvms.stopAll();
        }
    }

    private ChildJvms.Child run(String policy, long patienceMs) throws Exception {
        Path file = Files.writeString(dir.resolve("deadlock.yaml"), """
                taskClasses:
                  - name: collect
                    entry: execution(int io.qosweaver.testtargets.HostageWorker.collect(int))
                    importance: high
                  - name: chart
                    entry: execution(int io.qosweaver.testtargets.HostageWorker.chart())
                    importance: low
                controlPoints:
                  - call(int io.qosweaver.testtargets.HostageWorker.step(int)) && withincode(* io.qosweaver.testtargets.HostageWorker.chart())
                progressPoints:
                  - call(int io.qosweaver.testtargets.HostageWorker.measure(int)) && withincode(* io.qosweaver.testtargets.HostageWorker.collect(int))
                policy:
                """ + policy);
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "policy=" + file, ChildJvms.testClasses(),
                E2eHostageApp.class.getName(), Long.toString(patienceMs));
        assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).as("the program ended").isTrue();
        return c;
    }

    @Test
    void underTheDeadlockAwarePolicyTheProgramCompletes() throws Exception {
        ChildJvms.Child c = run("  name: deadlock-aware\n  lowLimit: 0\n", 20_000);
        assertThat(c.err()).contains("1 control-point pointcuts, 1 progress-point pointcuts");
        assertThat(c.process().exitValue()).as("stdout: %s%nstderr: %s", c.out(), c.err()).isZero();
        assertThat(c.out()).contains("LOCK RELEASED", "COMPLETED");
    }

    @Test
    void underTheImportancePolicyTheSameProgramDeadlocks() throws Exception {
        ChildJvms.Child c = run("  name: importance\n  lowLimit: 0\n", 3_000);
        assertThat(c.process().exitValue()).as("stdout: %s%nstderr: %s", c.out(), c.err()).isEqualTo(3);
        assertThat(c.out()).contains("LOCK STILL HELD", "DEADLOCK");
    }
}
