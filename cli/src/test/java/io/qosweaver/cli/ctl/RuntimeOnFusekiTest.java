package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime workflow on an application nobody here wrote: Apache Jena Fuseki (its server jar from
 * Maven Central, Jetty 12 inside, requests routed by a servlet filter), started without the agent.
 * {@code attach} with the committed hand-written policy, analytics scheduled under load (the
 * policy suspends them), {@code swap} to the generated policy (other join points: a re-weave), a
 * swap that adds the {@code threadPools} aspect (Jetty's pool inside Fuseki resized, then restored
 * by the next swap), {@code set}, {@code watch} of Fuseki's query execution, {@code unweave}; every
 * request answered throughout.
 */
class RuntimeOnFusekiTest {
    @TempDir
    Path dir;
    private LiveFuseki fuseki;

    @AfterEach
    void stop() throws Exception {
        if (fuseki != null) {
            fuseki.close();
        }
    }

    private String pid() {
        return fuseki.pid();
    }

    private String log() throws Exception {
        return fuseki.log();
    }

    private int get(String uri) throws Exception {
        return fuseki.get(uri);
    }

    private String light(int i) {
        return fuseki.light(i);
    }

    private void load(long millis) throws Exception {
        fuseki.load(millis);
    }

    @Test
    void attachSwapSetWatchAndUnweaveOnALiveFuseki() throws Exception {
        fuseki = LiveFuseki.start(dir);
        Layout layout = fuseki.layout;
        Path policies = layout.root().resolve("examples/third-party/fuseki/policies");
        CliRun attach = CliRun.of("attach", pid(), "--policy", policies.resolve("handwritten.yaml").toString());
        assertThat(attach.exit()).as(attach.err() + log()).isZero();
        assertThat(attach.out()).contains("task classes: lookup analytics").containsPattern("request [^\\n]*: [1-9]\\d* join points")
                .containsPattern("controlPoint [^\\n]*: [1-9]\\d* join points");

        load(4_000);
        CliRun status = CliRun.of("ctl", pid(), "status");
        assertThat(status.exit()).as(status.err()).isZero();
        Matcher m = Pattern.compile("scheduler: (\\d+) control points, (\\d+) suspensions").matcher(status.out());
        assertThat(m.find()).as(status.out()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("control points reached by the aggregates").isPositive();
        assertThat(Long.parseLong(m.group(2))).as("aggregates suspended: %d clients, lowCap 1x", LiveFuseki.HEAVY_CLIENTS)
                .isPositive();

        CliRun swap = CliRun.of("ctl", pid(), "swap", policies.resolve("generated.yaml").toString());
        assertThat(swap.exit()).as(swap.err() + log()).isZero();
        assertThat(swap.out()).contains("swapped to " + policies.resolve("generated.yaml"));
        load(2_000);
        // the generated file gives the server's own pool (Jetty 12.1's QueuedThreadPool inside Fuseki) room
        assertThat(CliRun.of("ctl", pid(), "status").out()).as("generated.yaml's threadPools")
                .containsPattern("threadPool jetty [^\\n]*: min \\d+, max 64, idleTimeout \\d+ ms \\(was ");

        // resized by a swap and restored by the next, which drops the section
        Path pools = Files.writeString(dir.resolve("pools.yaml"), Files.readString(policies.resolve("handwritten.yaml"))
                + "aspects:\n  threadPools:\n    - {server: jetty, min: 3, max: 24, idleTimeout: 20s}\n");
        CliRun poolSwap = CliRun.of("ctl", pid(), "swap", pools.toString());
        assertThat(poolSwap.exit()).as(poolSwap.err() + log()).isZero();
        load(1_000);
        String withPools = CliRun.of("ctl", pid(), "status").out();
        Matcher pool = Pattern.compile("threadPool jetty org\\.eclipse\\.jetty\\.util\\.thread\\.QueuedThreadPool@\\w+: "
                + "min 3, max 24, idleTimeout 20000 ms \\(was min (\\d+), max (\\d+), idleTimeout (\\d+) ms\\)")
                .matcher(withPools);
        assertThat(pool.find()).as(withPools).isTrue();
        String was = "min " + pool.group(1) + ", max " + pool.group(2) + ", idleTimeout " + pool.group(3) + " ms";
        CliRun back = CliRun.of("ctl", pid(), "swap", policies.resolve("handwritten.yaml").toString());
        assertThat(back.exit()).as(back.err() + log()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).as("Fuseki's own pool settings restored")
                .containsPattern("threadPool jetty [^\\n]*: " + Pattern.quote(was) + "\\R");

        CliRun set = CliRun.of("ctl", pid(), "set", "policy.lowCap=1");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).containsPattern("policy: importance \\{[^}]*lowCap=1[,}]");

        CompletableFuture<CliRun> watch = CompletableFuture.supplyAsync(() -> CliRun.of("watch", pid(),
                "execution(* org.apache.jena.fuseki.servlets.SPARQLQueryProcessor.executeQuery(..))", "--duration", "4s"));
        long watchEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        for (int i = 0; System.nanoTime() - watchEnd < 0; i++) {
            assertThat(get(light(i))).isEqualTo(200);
            Thread.sleep(100);
        }
        CliRun watched = watch.get(60, TimeUnit.SECONDS);
        assertThat(watched.exit()).as(watched.err()).isZero();
        assertThat(watched.out()).contains("SPARQLQueryProcessor.executeQuery(");

        CliRun unweave = CliRun.of("ctl", pid(), "unweave");
        assertThat(unweave.exit()).as(unweave.err() + log()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: none in force");
        load(1_000);
        assertThat(fuseki.alive()).isTrue();
        assertThat(log()).doesNotContain("[qosweaver] ERROR");
    }
}
