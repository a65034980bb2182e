package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.stats.PriorityReport;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Java priority scheduling (paper 5.1) and its effectiveness report. */
class JavaPriorityPolicyTest {

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        ThreadStates.removeForTests();
        Thread.currentThread().setPriority(Thread.NORM_PRIORITY);
    }

    @Test
    void maxForHighMinForLowNormAfterwardsNeverSuspends() {
        Scheduler s = Scheduler.install(Configs.config("java-priority", 1));
        Thread me = Thread.currentThread();
        QoS.enter("chart");
        assertThat(me.getPriority()).isEqualTo(Thread.MIN_PRIORITY);
        QoS.enter("collect"); // nested: the role is the higher-ranked class
        assertThat(me.getPriority()).isEqualTo(Thread.MAX_PRIORITY);
        QoS.enter("update"); // not observed: no change
        assertThat(me.getPriority()).isEqualTo(Thread.MAX_PRIORITY);
        QoS.exit();
        QoS.exit();
        assertThat(me.getPriority()).isEqualTo(Thread.MIN_PRIORITY);
        QoS.exit();
        assertThat(me.getPriority()).isEqualTo(Thread.NORM_PRIORITY);
        SchedulerStats st = s.stats();
        assertThat(st.yields()).isZero();
        assertThat(st.limit()).isEqualTo(-1);
        assertThat(st.priority().mechanism()).isEqualTo("java");
        assertThat(st.priority().changes()).isEqualTo(4);
    }

    @Test
    void reportsThatHotSpotIgnoresPrioritiesWithoutTheFlag() {
        Scheduler s = Scheduler.install(Configs.config("java-priority", 1));
        PriorityReport r = s.stats().priority();
        if (!java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().contains("-XX:ThreadPriorityPolicy=1") && new File("/proc/thread-self").exists()) {
            assertThat(r.effective()).isFalse();
            assertThat(r.reason()).contains("ThreadPriorityPolicy=0");
            assertThat(PrometheusText.render(s.stats()))
                    .contains("qosweaver_priority_effective{mechanism=\"java\",reason=\"HotSpot on Linux ignores");
        }
    }

    @Test
    void rejectsParameters() {
        assertThatThrownBy(() -> JavaPriorityPolicy.create(Views.context("java-priority", Map.of("lowLimit", "1"))))
                .hasMessageContaining("no parameters")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
    }

    /** A JVM started with -XX:ThreadPriorityPolicy=1: as root, priorities reach the OS. */
    @Test
    void withThreadPriorityPolicy1TheProbeSeesTheNiceValuesChange() throws Exception {
        if (!new File("/proc/thread-self").exists()) {
            return; // Linux only
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        Process p = new ProcessBuilder(List.of(javaBin, "-XX:ThreadPriorityPolicy=1", "-Xshare:auto", "-XX:TieredStopAtLevel=1",
                "-cp", cp, PriorityProbeMain.class.getName())).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean root = new String(java.nio.file.Files.readAllBytes(Path.of("/proc/self/status")), StandardCharsets.US_ASCII)
                .lines().filter(l -> l.startsWith("Uid:")).anyMatch(l -> l.split("\\s+")[2].equals("0"));
        if (root) {
            assertThat(out).contains("effective=true", "MIN_PRIORITY -> nice 4", "MAX_PRIORITY -> nice -5");
        } else {
            assertThat(out).contains("effective=false", "only lowering works");
        }
    }
}
