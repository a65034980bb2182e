package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import io.qosweaver.pointcuts.BinaryProfileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profiling mode attached to an application nobody here wrote: Fuseki started without the
 * agent, {@code attach --profile} (paused), {@code ctl profile start}, a few seconds of aggregates
 * and lookups, {@code ctl profile stop}: the file holds join points of Jena's own code, and every
 * request was answered throughout.
 */
class ProfileOnFusekiTest {
    /** Fuseki's servlets and Jena's query engine: the callers profiled. */
    private static final String INCLUDE = "org.apache.jena.fuseki+org.apache.jena.sparql.engine";

    @TempDir
    Path dir;
    private LiveFuseki fuseki;

    @AfterEach
    void stop() throws Exception {
        if (fuseki != null) {
            fuseki.close();
        }
    }

    @Test
    void profileStartAndStopOnALiveFuseki() throws Exception {
        fuseki = LiveFuseki.start(dir.resolve("run"));
        String pid = fuseki.pid();
        Path out = dir.resolve("fuseki.qwp");
        CliRun attach = CliRun.of("attach", pid, "--profile", out.toString(), "--include", INCLUDE);
        assertThat(attach.exit()).as(attach.err() + fuseki.log()).isZero();
        assertThat(attach.out()).contains("paused");
        assertThat(Files.exists(out)).as("nothing written while paused").isFalse();
        fuseki.load(500); // answered with the probe woven and paused

        CliRun start = CliRun.of("ctl", pid, "profile", "start");
        assertThat(start.exit()).as(start.err() + fuseki.log()).isZero();
        int aggregates = fuseki.load(3_000);
        CliRun stop = CliRun.of("ctl", pid, "profile", "stop");
        assertThat(stop.exit()).as(stop.err() + fuseki.log()).isZero();
        assertThat(stop.out()).containsPattern("[1-9][0-9]* join points");
        fuseki.load(500); // and after the recording, the probe still woven

        assertThat(out).isRegularFile();
        assertThat(Files.size(out)).isPositive();
        assertThat(BinaryProfileReader.version(out)).as("slot summaries, the default format").isEqualTo(2);
        // calls per caller, from the slot summaries
        Map<Integer, String> signatures = new HashMap<>();
        Map<Integer, Integer> callerOf = new HashMap<>();
        Map<String, Long> callsByCaller = new TreeMap<>();
        BinaryProfileReader.Summary summary = BinaryProfileReader.readSlots(out, new BinaryProfileReader.SlotTarget() {
            @Override
            public void signature(int id, String text) {
                signatures.put(id, text);
            }

            @Override
            public void pair(int id, int callerId, int calleeId) {
                callerOf.put(id, callerId);
            }

            @Override
            public void timeline(int index, long threadId, long startNanos) {
            }

            @Override
            public void slot(int timeline, long slot, int entries, int[] pairs, int[] counts, int[] first, int[] last) {
                for (int i = 0; i < entries; i++) {
                    callsByCaller.merge(String.valueOf(signatures.get(callerOf.get(pairs[i]))), (long) counts[i], Long::sum);
                }
            }
        });
        assertThat(summary.joinPoints()).as("join points of %d aggregates", aggregates).isPositive();
        assertThat(callsByCaller.keySet()).as("callers").anyMatch(s -> s.contains("org.apache.jena.sparql.engine"))
                .anyMatch(s -> s.contains("org.apache.jena.fuseki"));
        assertThat(callsByCaller.values().stream().mapToLong(Long::longValue).sum()).isPositive();

        CliRun summaryRun = CliRun.of("ctl", pid, "profile", "status");
        assertThat(summaryRun.exit()).as(summaryRun.err()).isZero();
        assertThat(summaryRun.out()).contains(out.toString());
        CliRun pause = CliRun.of("ctl", pid, "profile", "pause");
        assertThat(pause.exit()).isEqualTo(1);
        assertThat(pause.err()).contains("'profile pause' is not a command here").contains("profile start | profile stop");
        CliRun again = CliRun.of("attach", pid, "--profile", out.toString(), "--include", INCLUDE);
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("already runs the QoSWeaver agent");
        CliRun swap = CliRun.of("ctl", pid, "unweave");
        assertThat(swap.exit()).as("a profiling agent refuses the policy commands").isEqualTo(1);
        assertThat(swap.err()).contains("need the agent started with a policy");
        assertThat(fuseki.alive()).isTrue();
        assertThat(fuseki.log()).doesNotContain("[qosweaver] ERROR");
    }
}
