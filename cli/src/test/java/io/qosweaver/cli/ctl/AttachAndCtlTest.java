package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qosweaver attach} and {@code qosweaver ctl} end to end, with the real agent jar, on a small
 * HTTP service of the test sources started without any agent.
 */
class AttachAndCtlTest {
    private static final String LOW = """
            taskClasses:
              - name: work
                entry: execution(long demo.workserver.WorkServer.work(int))
                importance: low
            controlPoints:
              - call(long demo.workserver.WorkServer.step(int)) && withincode(long demo.workserver.WorkServer.work(int))
            policy:
              name: importance
              lowLimit: 1
            """;

    @TempDir
    Path dir;
    private Process app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    private int startApp() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path classes = Path.of(demo.workserver.WorkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:off",
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp", classes.toString(),
                "demo.workserver.WorkServer", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                get(port);
                return port;
            } catch (java.io.IOException e) {
                assertThat(System.nanoTime()).as("the app answers within 30 s").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private void get(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private Path policy(String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }

    private String pid() {
        return Long.toString(app.pid());
    }

    @Test
    void attachWeavesARunningJvmAndCtlSwapsSetsAndUnweaves() throws Exception {
        int port = startApp();
        get(port); // the methods to weave are loaded and compiled before the agent arrives
        CliRun attach = CliRun.of("attach", pid(), "--policy", policy("low.yaml", LOW).toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        assertThat(attach.out()).contains("policy: importance {lowLimit=1}").contains("task classes: work");

        get(port);
        CliRun status = CliRun.of("ctl", pid(), "status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).containsPattern("entry [^\\n]*low.yaml:2: 1 join points")
                .containsPattern("controlPoint [^\\n]*: 1 join points")
                .containsPattern("scheduler: [1-9][0-9]* control points");

        CliRun again = CliRun.of("attach", pid(), "--policy", dir.resolve("low.yaml").toString());
        assertThat(again.exit()).isEqualTo(1);
        assertThat(again.err()).contains("already runs the QoSWeaver agent; change its policy with qosweaver ctl " + pid()
                + " swap");

        // a broken file: refused with its line, the policy in force unchanged
        Path broken = policy("broken.yaml", LOW.replace("lowLimit: 1", "lowLimit: many"));
        CliRun refused = CliRun.of("ctl", pid(), "swap", broken.toString());
        assertThat(refused.exit()).isEqualTo(1);
        assertThat(refused.err()).contains("broken.yaml:").contains("lowLimit").contains("the policy in force is unchanged");
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: importance {lowLimit=1}");

        Path admission = policy("admission.yaml", LOW.replace("name: importance", "name: admission"));
        CliRun swapped = CliRun.of("ctl", pid(), "swap", admission.toString());
        assertThat(swapped.exit()).as(swapped.err()).isZero();
        assertThat(swapped.out()).contains("swapped to " + admission).contains("policy admission")
                .contains("the same join points as before: the weaving kept, nothing retransformed");
        get(port);
        CliRun json = CliRun.of("ctl", pid(), "status", "--json");
        assertThat(json.out()).contains("\"policy\": \"admission\"").contains("\"policyFile\": \"" + admission + "\"")
                .contains("\"inForce\": true");

        CliRun set = CliRun.of("ctl", pid(), "set", "policy.lowLimit=2");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: admission {lowLimit=2}");
        CliRun badSet = CliRun.of("ctl", pid(), "set", "policy.lowLimit=-3");
        assertThat(badSet.exit()).isEqualTo(1);
        assertThat(badSet.err()).contains("policy.lowLimit").contains("nothing changed");
        CliRun notPair = CliRun.of("ctl", pid(), "set", "lowLimit");
        assertThat(notPair.exit()).isEqualTo(1);
        assertThat(notPair.err()).contains("'lowLimit' is not KEY=VALUE");

        CliRun unweave = CliRun.of("ctl", pid(), "unweave");
        assertThat(unweave.exit()).as(unweave.err()).isZero();
        assertThat(unweave.out()).contains("every woven class is back to its original bytes");
        get(port); // the application runs on, unscheduled
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: none in force");
        assertThat(CliRun.of("ctl", pid(), "set", "policy.lowLimit=1").err()).contains("no policy is in force");

        // and a policy can be swapped in again after an unweave
        CliRun back = CliRun.of("ctl", pid(), "swap", dir.resolve("low.yaml").toString());
        assertThat(back.exit()).as(back.err()).isZero();
        assertThat(back.out()).containsPattern("[1-9][0-9]* classes retransformed to the new hooks, 0 back");
        get(port);
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: importance {lowLimit=1}")
                .containsPattern("controlPoint [^\\n]*: 1 join points");
        assertThat(app.isAlive()).isTrue();
    }

    @Test
    void badTargetsAndFilesAreOneLineEach() throws Exception {
        Path ok = policy("low.yaml", LOW);
        long dead = new ProcessBuilder("true").start().onExit().get().pid();
        CliRun noProcess = CliRun.of("ctl", Long.toString(dead), "status");
        assertThat(noProcess.exit()).isEqualTo(1);
        assertThat(noProcess.err().strip()).isEqualTo("qosweaver ctl: no process with pid " + dead);
        CliRun attachDead = CliRun.of("attach", Long.toString(dead), "--policy", ok.toString());
        assertThat(attachDead.exit()).isEqualTo(1);
        assertThat(attachDead.err().strip()).isEqualTo("qosweaver attach: no process with pid " + dead);

        startApp();
        CliRun noAgent = CliRun.of("ctl", pid(), "status");
        assertThat(noAgent.exit()).isEqualTo(1);
        assertThat(noAgent.err()).contains("process " + pid() + " runs no QoSWeaver agent with a control socket")
                .contains("qosweaver attach " + pid() + " --policy FILE");

        Path broken = policy("broken.yaml", LOW.replace("name: importance", "name: fastest"));
        CliRun refused = CliRun.of("attach", pid(), "--policy", broken.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("broken.yaml:").contains("fastest").contains("nothing was attached");
        CliRun missing = CliRun.of("attach", pid(), "--policy", dir.resolve("nope.yaml").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("nope.yaml");
        assertThat(CliRun.of("ctl", pid(), "status").exit()).as("still no agent in the app").isEqualTo(1);

        CliRun unknown = CliRun.of("ctl", Long.toString(ProcessHandle.current().pid()), "frobnicate");
        assertThat(unknown.exit()).isEqualTo(1);
        CliRun swapMissing = CliRun.of("ctl", pid(), "swap", dir.resolve("nope.yaml").toString());
        assertThat(swapMissing.exit()).isEqualTo(2);
        assertThat(swapMissing.err()).contains("no such readable file; nothing sent");
        assertThat(app.isAlive()).isTrue();
    }

    @Test
    void attachInProfilingModeIsDrivenByCtl() throws Exception {
        int port = startApp();
        get(port);
        Path out = dir.resolve("work.qwp");
        CliRun attach = CliRun.of("attach", pid(), "--profile", out.toString(), "--include", "demo.workserver");
        assertThat(attach.exit()).as(attach.err()).isZero();
        assertThat(attach.out()).contains("paused");
        assertThat(CliRun.of("ctl", pid(), "profile", "start").exit()).isZero();
        get(port);
        CliRun stop = CliRun.of("ctl", pid(), "profile", "stop");
        assertThat(stop.exit()).as(stop.err()).isZero();
        assertThat(stop.out()).containsPattern("[1-9][0-9]* join points");
        assertThat(io.qosweaver.pointcuts.BinaryProfileReader.summary(out).joinPoints()).isGreaterThan(1_000_000);
        CliRun swap = CliRun.of("ctl", pid(), "swap", policy("low.yaml", LOW).toString());
        assertThat(swap.exit()).isEqualTo(1);
        assertThat(swap.err()).contains("is not a command here").contains("need the agent started with a policy");
        CliRun both = CliRun.of("attach", pid(), "--profile", out.toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("--profile and --include go together");
    }

    /** A watch prints the calls, bounds the rate, and leaves nothing woven after it. */
    @Test
    void watchTracesLiveCallsThenUnweaves() throws Exception {
        int port = startApp();
        get(port);
        assertThat(CliRun.of("attach", pid(), "--policy", policy("low.yaml", LOW).toString()).exit()).isZero();
        Thread load = new Thread(() -> {
            try {
                for (int i = 0; i < 200 && !Thread.currentThread().isInterrupted(); i++) {
                    get(port);
                }
            } catch (Exception e) {
                // the test ends the load by interrupting it
            }
        });
        load.start();
        try {
            CliRun watch = CliRun.of("watch", pid(), "execution(long demo.workserver.WorkServer.work(int))", "--duration",
                    "2s");
            assertThat(watch.exit()).as(watch.err()).isZero();
            assertThat(watch.err()).contains("watching 1 methods in 1 classes for 2000 ms")
                    .containsPattern("matched [1-9][0-9]*, not printed 0").contains("stopped: every watched class");
            assertThat(watch.out()).containsPattern("\\[pool-1-thread-[0-9]+\\] [0-9.]+ ms demo\\.workserver\\.WorkServer"
                    + "\\.work\\(2000000\\) = -?[0-9]+");

            CliRun bounded = CliRun.of("watch", pid(), "execution(long demo.workserver.WorkServer.step(int))",
                    "--duration", "1500ms", "--max-rate", "3");
            assertThat(bounded.exit()).as(bounded.err()).isZero();
            long lines = bounded.out().lines().count();
            // 3 a second; 1.5 s and the round trips of start and stop touch at most four clock seconds
            assertThat(lines).as("3 a second, against millions of calls").isBetween(1L, 12L);
            assertThat(bounded.err()).containsPattern("not printed [1-9][0-9]{3,}");
        } finally {
            load.interrupt();
            load.join();
        }
        CliRun none = CliRun.of("watch", pid(), "execution(* demo.workserver.NoSuch.*(..))", "--duration", "1s");
        assertThat(none.exit()).isEqualTo(1);
        assertThat(none.err()).contains("selects no method of the classes this JVM has loaded; nothing is woven");
        CliRun call = CliRun.of("watch", pid(), "call(long demo.workserver.WorkServer.step(int))", "--duration", "1s");
        assertThat(call.exit()).isEqualTo(1);
        assertThat(call.err()).contains("a watch selects method executions");
        CliRun badDuration = CliRun.of("watch", pid(), "execution(* *.*(..))", "--duration", "forever");
        assertThat(badDuration.exit()).isEqualTo(2);
        assertThat(CliRun.of("ctl", pid(), "watch", "poll").err()).contains("no watch runs in this JVM");
        // the policy's own hooks are still in place after the watch
        get(port);
        assertThat(CliRun.of("ctl", pid(), "status").out()).containsPattern("controlPoint [^\\n]*: 1 join points");
    }

    /** Requests at once, each on its own client thread: how many answered 200. */
    private int concurrent(int port, int n) throws Exception {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(n);
        try {
            List<java.util.concurrent.Future<Boolean>> all = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(pool.submit(() -> {
                    try {
                        get(port);
                        return true;
                    } catch (java.io.IOException | AssertionError e) {
                        return false; // a refused request: the server closes the exchange
                    }
                }));
            }
            int ok = 0;
            for (var f : all) {
                ok += f.get() ? 1 : 0;
            }
            return ok;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A bulkhead refuses what is beyond its limit and queue; swapped for a synchronization aspect, all pass one at a time. */
    @Test
    void aspectsAreWovenAndSwappedAtRunTime() throws Exception {
        int port = startApp();
        get(port);
        Path bulkhead = policy("bulkhead.yaml", LOW + """
                aspects:
                  bulkheads:
                    - pointcut: execution(long demo.workserver.WorkServer.work(int))
                      limit: 1
                      queue: 0
                """);
        CliRun attach = CliRun.of("attach", pid(), "--policy", bulkhead.toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        // the service's pool has 2 threads, both in work() at once most of the time under 6 requests
        int ok = concurrent(port, 6);
        CliRun status = CliRun.of("ctl", pid(), "status");
        assertThat(status.out()).containsPattern("bulkhead [^\\n]*bulkhead.yaml:12: 1 join points")
                .containsPattern("bulkhead [^\\n]*bulkhead.yaml:12: limit 1, running 0, waiting 0 \\(at most 0\\),"
                        + " admitted [1-9][0-9]*, rejected [0-9]+");
        int rejected = Integer.parseInt(status.out().replaceAll("(?s).*rejected ([0-9]+).*", "$1"));
        int admitted = Integer.parseInt(status.out().replaceAll("(?s).*admitted ([0-9]+).*", "$1"));
        assertThat(rejected).as("the second thread in work() is refused").isPositive();
        // the client retries a GET whose connection closed without an answer, once: ok counts those too
        assertThat(admitted).isEqualTo(ok);

        Path sync = policy("sync.yaml", LOW + """
                aspects:
                  synchronize:
                    - execution(long demo.workserver.WorkServer.work(int))
                """);
        assertThat(CliRun.of("ctl", pid(), "swap", sync.toString()).exit()).isZero();
        assertThat(concurrent(port, 2)).as("serialized, none refused").isEqualTo(2);
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("synchronize " + sync.toString().replace("sync.yaml",
                "sync.yaml:12") + ": entered 2, waiting 0").doesNotContain("bulkhead");
        assertThat(CliRun.of("ctl", pid(), "unweave").exit()).isZero();
        assertThat(concurrent(port, 2)).isEqualTo(2);
    }

    private HttpResponse<String> nap(int port, long ms) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nap?" + ms))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A time-out interrupts an execution still running at its bound, and its interrupt does not
     * reach the caller; swapped for {@code fail}, a late return throws (the service closes the
     * exchange without an answer) and a fast one answers.
     */
    @Test
    void timeoutsInterruptOrFailOnlyTheExecutionsPastTheirBound() throws Exception {
        int port = startApp();
        assertThat(nap(port, 1).body()).isEqualTo("slept, interrupted after false\n");
        Path interrupt = policy("interrupt.yaml", LOW + """
                aspects:
                  timeouts:
                    - pointcut: execution(String demo.workserver.WorkServer.nap(long))
                      after: 300ms
                      action: interrupt
                """);
        CliRun attach = CliRun.of("attach", pid(), "--policy", interrupt.toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        long start = System.nanoTime();
        assertThat(nap(port, 20_000).body()).isEqualTo("interrupted, interrupted after false\n");
        assertThat((System.nanoTime() - start) / 1_000_000).as("ms").isBetween(300L, 15_000L);
        assertThat(nap(port, 1).body()).isEqualTo("slept, interrupted after false\n");
        assertThat(CliRun.of("ctl", pid(), "status").out()).containsPattern("timeout [^\\n]*interrupt.yaml:12: 1 join points")
                .containsPattern("timeout [^\\n]*interrupt.yaml:12: after 300ms interrupt, started 2, timed out 1,"
                        + " interrupted 1");

        Path fail = policy("fail.yaml", LOW + """
                aspects:
                  timeouts:
                    - pointcut: execution(String demo.workserver.WorkServer.nap(long))
                      after: 300ms
                      action: fail
                """);
        CliRun swap = CliRun.of("ctl", pid(), "swap", fail.toString());
        assertThat(swap.exit()).as(swap.err()).isZero();
        assertThat(nap(port, 5).body()).isEqualTo("slept, interrupted after false\n");
        boolean answered;
        try {
            answered = nap(port, 600).statusCode() == 200;
        } catch (java.io.IOException e) {
            answered = false; // the handler threw: the exchange closed without an answer
        }
        assertThat(answered).as("the late return failed").isFalse();
        assertThat(CliRun.of("ctl", pid(), "status").out())
                // the client retries, once, a GET whose connection closed without an answer
                .containsPattern("timeout [^\\n]*fail.yaml:12: after 300ms fail, started ([23]), timed out ([12]), failed \\2")
                .doesNotContain("interrupt.yaml");
        assertThat(CliRun.of("ctl", pid(), "unweave").exit()).isZero();
        assertThat(nap(port, 600).body()).isEqualTo("slept, interrupted after false\n");
    }

    /**
     * {@code ctl status --json} carries the dynamic aspects the text status prints: a bulkhead and
     * a time-out at once, their counters after requests, the thread-pool section's pools (none
     * here); a swap to a file without aspects empties them.
     */
    @Test
    void statusJsonCarriesTheDynamicAspects() throws Exception {
        int port = startApp();
        get(port);
        Path aspects = policy("aspects.yaml", LOW + """
                aspects:
                  bulkheads:
                    - pointcut: execution(long demo.workserver.WorkServer.work(int))
                      limit: 2
                      queue: 3
                      timeout: 5s
                  timeouts:
                    - pointcut: execution(String demo.workserver.WorkServer.nap(long))
                      after: 300ms
                      action: interrupt
                  threadPools:
                    - server: jetty
                      max: 4
                """);
        CliRun attach = CliRun.of("attach", pid(), "--policy", aspects.toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        get(port);
        get(port);
        assertThat(nap(port, 20_000).body()).isEqualTo("interrupted, interrupted after false\n");

        CliRun status = CliRun.of("ctl", pid(), "status", "--json");
        assertThat(status.exit()).as(status.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(status.out());
        assertThat(json.path("inForce").asBoolean()).isTrue();
        com.fasterxml.jackson.databind.JsonNode a = json.path("aspects");
        assertThat(a.isObject()).as(status.out()).isTrue();
        com.fasterxml.jackson.databind.JsonNode bulkheads = a.path("bulkheads");
        assertThat(bulkheads.size()).as(status.out()).isEqualTo(1);
        com.fasterxml.jackson.databind.JsonNode b = bulkheads.get(0);
        assertThat(b.path("location").asText()).isEqualTo(aspects + ":12");
        assertThat(b.path("pointcut").asText()).isEqualTo("execution(long demo.workserver.WorkServer.work(int))");
        assertThat(b.path("registered").asBoolean()).isTrue();
        assertThat(b.path("limit").asInt()).isEqualTo(2);
        assertThat(b.path("queue").asInt()).isEqualTo(3);
        assertThat(b.path("timeoutMs").asLong()).isEqualTo(5000);
        assertThat(b.path("running").asInt()).isZero();
        assertThat(b.path("waiting").asInt()).isZero();
        assertThat(b.path("admitted").asLong()).isEqualTo(2);
        assertThat(b.path("rejected").asLong()).isZero();
        com.fasterxml.jackson.databind.JsonNode timeouts = a.path("timeouts");
        assertThat(timeouts.size()).as(status.out()).isEqualTo(1);
        com.fasterxml.jackson.databind.JsonNode t = timeouts.get(0);
        assertThat(t.path("location").asText()).isEqualTo(aspects + ":17");
        assertThat(t.path("registered").asBoolean()).isTrue();
        assertThat(t.path("afterMs").asLong()).isEqualTo(300);
        assertThat(t.path("action").asText()).isEqualTo("interrupt");
        assertThat(t.path("started").asLong()).isEqualTo(1);
        assertThat(t.path("timedOut").asLong()).isEqualTo(1);
        assertThat(t.path("interrupted").asLong()).isEqualTo(1);
        assertThat(a.path("synchronize").isArray()).isTrue();
        assertThat(a.path("synchronize").size()).isZero();
        assertThat(a.path("semaphores").size()).isZero();
        assertThat(a.path("threadPools").isArray()).as("no server pool in this JVM").isTrue();
        assertThat(a.path("threadPools").size()).isZero();
        // the same counters as the text status
        assertThat(CliRun.of("ctl", pid(), "status").out())
                .contains("bulkhead " + aspects + ":12: limit 2, running 0, waiting 0 (at most 3), admitted 2, rejected 0")
                .contains("timeout " + aspects + ":17: after 300ms interrupt, started 1, timed out 1, interrupted 1");

        CliRun swap = CliRun.of("ctl", pid(), "swap", policy("low.yaml", LOW).toString());
        assertThat(swap.exit()).as(swap.err()).isZero();
        com.fasterxml.jackson.databind.JsonNode after = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(CliRun.of("ctl", pid(), "status", "--json").out()).path("aspects");
        for (String kind : List.of("bulkheads", "semaphores", "synchronize", "timeouts", "threadPools")) {
            assertThat(after.path(kind).isArray()).as(kind).isTrue();
            assertThat(after.path(kind).size()).as(kind).isZero();
        }
    }

    /** A policy that sizes a server's pool in a JVM without that server: status and the match check say so. */
    @Test
    void threadPoolsOfAServerThatIsNotThereAreReported() throws Exception {
        startApp();
        Path pools = policy("pools.yaml", "matchCheckSeconds: 1\n" + LOW + """
                aspects:
                  threadPools:
                    - server: jetty
                      max: 4
                """);
        CliRun attach = CliRun.of("attach", pid(), "--policy", pools.toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).containsPattern("threadPool [^\\n]*pools.yaml:13: 0 join points")
                .contains("threadPools: no server pool seen yet");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String line = "threadPools " + pools + ":13: no Jetty QueuedThreadPool seen after 1 s";
        while (!Files.readString(dir.resolve("app.log")).contains(line) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Files.readString(dir.resolve("app.log"))).contains(line);
    }

    @Test
    void theAgentRefusesUnknownCommands() throws Exception {
        int port = startApp();
        assertThat(CliRun.of("attach", pid(), "--policy", policy("low.yaml", LOW).toString()).exit()).isZero();
        CliRun unknown = CliRun.of("ctl", pid(), "frobnicate");
        assertThat(unknown.exit()).isEqualTo(1);
        assertThat(unknown.err()).contains("unknown command 'frobnicate'; commands: status | swap FILE");
        CliRun extra = CliRun.of("ctl", pid(), "status", "now");
        assertThat(extra.err()).contains("status takes no argument");
        get(port);
        assertThat(List.of(app.isAlive())).containsExactly(true);
    }
}
