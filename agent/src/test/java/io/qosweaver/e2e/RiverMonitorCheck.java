package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The river monitor's own policy file on the real river monitor: it loads and every pointcut matches. */
final class RiverMonitorCheck {
    private RiverMonitorCheck() {}

    static void run(ChildJvms jvms, Path root, Path jar) throws Exception {
        Path policy = root.resolve("examples/policies/river-monitor.yaml");
        ChildJvms.Child c = jvms.start(java.util.List.of(), "policy=" + policy + ",metricsPort=0", jar.toString(),
                "org.rivermonitor.Main", "--port", "0", "--generator-port", "0", "--rivers", "4", "--period", "1s",
                "--history-hours", "3");
        Pattern listening = Pattern.compile("river-monitor listening on http://127\\.0\\.0\\.1:(\\d+)");
        await().atMost(90, TimeUnit.SECONDS).until(() -> c.port(listening, c.out()) > 0 || !c.process().isAlive());
        String err = c.err();
        assertThat(c.process().isAlive()).as(err).isTrue();
        // every list item under controlPoints: is one pointcut; all of them must load (and match, below)
        long pointcuts = java.nio.file.Files.readAllLines(policy).stream()
                .dropWhile(l -> !l.startsWith("controlPoints:")).takeWhile(l -> !l.startsWith("policy:"))
                .filter(l -> l.stripLeading().startsWith("- ")).count();
        assertThat(pointcuts).isGreaterThanOrEqualTo(3);
        assertThat(err).contains("[qosweaver] agent started: policy " + policy + ", 2 task classes, " + pointcuts
                + " control-point pointcuts");
        int port = c.port(listening, c.out());
        int mport = c.port(Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics"), err);
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 3; i++) {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/chart?river=1&hours=3")).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofByteArray());
            assertThat(r.statusCode()).isEqualTo(200);
        }
        // the collector runs every second: wait for its entry to be woven and run
        await().atMost(30, TimeUnit.SECONDS).untilAsserted(() -> {
            String metrics = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mport + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher m = Pattern.compile("(?m)^qosweaver_agent_unmatched_pointcuts (\\d+)$").matcher(metrics);
            assertThat(m.find()).as(metrics).isTrue();
            assertThat(m.group(1)).as(metrics).isEqualTo("0");
        });
        assertThat(c.err()).doesNotContain("could not weave");
    }
}
