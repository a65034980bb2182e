package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MTR-LS end to end, in a child JVM under {@code -javaagent}: two CPU-bound task classes at 70 %
 * and 20 %, two threads each, on one managed core (P = 1, the reserved 5 % by default), with a
 * control point woven before every step of {@link io.qosweaver.testtargets.ShareWorker}. They get
 * CPU time in the ratio of their fractions (0.7 / 0.9 of what the two use), never more than one
 * core between them, and the agent's /metrics carries each entity's share.
 */
class MtrLsIT {
    private static final Pattern RESULT = Pattern.compile("BIG_CPU_MS=(\\d+) SMALL_CPU_MS=(\\d+) WALL_MS=(\\d+)");
    private static final Pattern METRICS_PORT =
            Pattern.compile("\\[qosweaver] metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @TempDir
    Path dir;
    private ChildJvms jvms;

    @AfterEach
    void stop() {
        if (jvms != null) {
            jvms.stopAll();
        }
    }

    @Test
    void twoClassesAt70And20PercentShareOneCoreInThatRatio() throws Exception {
        Path file = Files.writeString(dir.resolve("shares.yaml"), """
                taskClasses:
                  - name: big
                    entry: execution(long io.qosweaver.testtargets.ShareWorker.big())
                    fraction: 0.7
                  - name: small
                    entry: execution(long io.qosweaver.testtargets.ShareWorker.small())
                    share: 20%
                controlPoints:
                  - call(long io.qosweaver.testtargets.ShareWorker.step(long))
                policy:
                  name: mtr-ls
                  cores: 1
                """);
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "policy=" + file + ",metricsPort=0", ChildJvms.testClasses(),
                E2eShareApp.class.getName(), "4000");
        await().atMost(60, TimeUnit.SECONDS).until(() -> RESULT.matcher(c.out()).find() || !c.process().isAlive());
        Matcher m = RESULT.matcher(c.out());
        assertThat(m.find()).as("stdout: %s%nstderr: %s", c.out(), c.err()).isTrue();
        long big = Long.parseLong(m.group(1)), small = Long.parseLong(m.group(2)), wall = Long.parseLong(m.group(3));
        double ratio = (double) big / (big + small);
        System.out.printf("mtr-ls under the agent: big %d ms, small %d ms of CPU in %d ms: big/(big+small) %.3f,"
                + " shares of the core %.3f and %.3f%n", big, small, wall, ratio, big / (double) wall,
                small / (double) wall);
        assertThat(ratio).as("0.7 / (0.7 + 0.2)").isCloseTo(0.7 / 0.9, within(0.08));
        assertThat(big + small).as("P = 1: at most one core between them").isLessThanOrEqualTo(wall * 105 / 100);
        int port = c.port(METRICS_PORT, c.err());
        assertThat(port).as(c.err()).isPositive();
        String metrics = ChildJvms.get(port, "/metrics");
        assertThat(metrics)
                .contains("qosweaver_share_fraction{entity=\"big\",task_class=\"big\",kind=\"fraction\"} 0.700000\n")
                .contains("qosweaver_share_fraction{entity=\"small\",task_class=\"small\",kind=\"fraction\"} 0.200000\n")
                .contains("qosweaver_share_received{entity=\"os\",task_class=\"os\",kind=\"reserved\"} ");
    }
}
