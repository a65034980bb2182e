package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.app.Proc;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.testing.TestServer;
import io.qosweaver.bench.testing.TestServer.Reply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver's arguments, and real driver JVMs against an embedded Jetty, as the experiment starts them. */
class MixedDriverTest {
    @TempDir
    Path tmp;

    private static String[] args(String... kv) {
        return kv;
    }

    @Test
    void argumentsAreParsedAndCheckedWithWhatIsWrong() {
        MixedDriver.Args a = MixedDriver.Args.parse(args("--name", "light", "--mode", "open", "--rate", "20",
                "--clients", "50", "--target", "http://x/{i}", "--ids", "10", "--window-start-ms", "1000",
                "--window-end-ms", "2000", "--out", "r.json"));
        assertThat(a.spec().ratePerSecond()).isEqualTo(20.0);
        assertThat(a.spec().clients()).isEqualTo(50);
        assertThat(a.spec().transport()).isEqualTo(io.qosweaver.bench.load.LoadSpec.Transport.JDK);
        String[] window = {"--window-start-ms", "1", "--window-end-ms", "2", "--out", "o"};
        assertThat(MixedDriver.Args.parse(concat(args("--name", "l", "--mode", "open", "--rate", "20", "--target", "t",
                "--transport", "socket"), window)).spec().transport()).isEqualTo(io.qosweaver.bench.load.LoadSpec.Transport.SOCKET);
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "l", "--mode", "open", "--rate", "20",
                "--target", "t", "--transport", "netty"), window))).hasMessage("--transport: jdk or socket, got 'netty'");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t",
                "--transport", "socket"), window)).spec()).hasMessage("h: the socket transport drives an open loop only");
        assertThatThrownBy(() -> MixedDriver.Args.parse(args("--name", "x", "--mode", "open")))
                .hasMessage("missing --target");
        assertThatThrownBy(() -> MixedDriver.Args.parse(args("--name", "x", "--mode", "sideways", "--target", "t",
                "--window-start-ms", "1", "--window-end-ms", "2", "--out", "o")))
                .hasMessage("--mode: closed or open, got 'sideways'");
        assertThatThrownBy(() -> MixedDriver.Args.parse(args("--name", "x", "--mode", "closed", "--target", "t",
                "--window-start-ms", "2", "--window-end-ms", "2", "--out", "o")))
                .hasMessage("--window-end-ms must be after --window-start-ms");
        assertThatThrownBy(() -> MixedDriver.Args.parse(args("--name")))
                .hasMessage("expected --key value pairs, got '--name'");
        assertThat(a.fifo()).isZero();
        assertThat(MixedDriver.Args.parse(concat(args("--name", "l", "--mode", "open", "--rate", "20", "--target", "t",
                "--fifo", "1"), window)).fifo()).isEqualTo(1);
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "l", "--mode", "open", "--rate", "20",
                "--target", "t", "--fifo", "100"), window)))
                .hasMessage("--fifo: a SCHED_FIFO priority 1..99 (0: none), got 100");
    }

    @Test
    void anAnswerCheckIsParsedIntoTheSpecAndItsMistakesAreNamed() {
        String[] window = {"--window-start-ms", "1", "--window-end-ms", "2", "--out", "o"};
        assertThat(MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t"), window))
                .spec().answer()).isNull();
        assertThat(MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t",
                "--expect", "<div class=\"page\">", "--expect-count", "100"), window)).spec().answer())
                .isEqualTo(new io.qosweaver.bench.load.AnswerCheck("<div class=\"page\">", 100));
        assertThat(MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t",
                "--expect", "ok"), window)).spec().answer().count()).isEqualTo(1);
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t",
                "--expect-count", "3"), window))).hasMessage("--expect-count needs --expect TEXT");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "h", "--mode", "closed", "--target", "t",
                "--expect", "x", "--expect-count", "many"), window))).hasMessage("--expect-count: a number, got 'many'");
    }

    @Test
    void aTargetWithAnAnswerCheckPassesItToItsDriver() {
        Mixed.Target t = new Mixed.Target("http://x/tika", null, tmp, new io.qosweaver.bench.load.AnswerCheck("p", 7));
        assertThat(t.driverArgs()).containsExactly("--target", "http://x/tika", "--expect", "p", "--expect-count", "7");
        assertThat(new Mixed.Target("http://x/y", null, tmp).driverArgs()).containsExactly("--target", "http://x/y");
    }

    @Test
    void theIdsOfTheLightTargetsWalkEveryIdBeforeRepeating() {
        MixedDriver.Args a = MixedDriver.Args.parse(args("--name", "light", "--mode", "open", "--rate", "1",
                "--target", "http://h/item/{i}", "--ids", "50000", "--window-start-ms", "1", "--window-end-ms", "2",
                "--out", "o"));
        Set<String> seen = new HashSet<>();
        for (long seq = 0; seq < 50_000; seq++) {
            seen.add(a.spec().targets().uri(seq).getPath());
        }
        assertThat(seen).hasSize(50_000).contains("/item/0", "/item/49999");
        assertThat(a.spec().targets().uri(50_000)).isEqualTo(a.spec().targets().uri(0));
    }

    /** Time given to a driver JVM to start before its window. */
    private static final long LEAD_MS = 6_000;

    @Test
    void aDriverThatComesUpAfterItsWindowFailsInsteadOfMeasuringNothing() {
        long now = System.currentTimeMillis();
        MixedDriver.Args a = MixedDriver.Args.parse(args("--name", "x", "--mode", "closed", "--target",
                "http://127.0.0.1:9/x", "--window-start-ms", Long.toString(now - 2000), "--window-end-ms",
                Long.toString(now - 1000), "--out", tmp.resolve("o.json").toString()));
        assertThatThrownBy(() -> MixedDriver.run(a)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after its window ended");
    }

    @Test
    void twoDriverJvmsMeasureTheSameWindowAndTheHeavyOneRunsNiced() throws Exception {
        Set<String> items = ConcurrentHashMap.newKeySet();
        try (TestServer server = new TestServer()
                .route("/heavy", q -> new Reply(200, "text/plain", "h", 20))
                .route("/light", q -> {
                    items.add(q);
                    return Reply.ok("l");
                })) {
            // a lead long enough for two JVMs to start on a loaded 2-core machine (CI beside other builds
            // once took more than 3 s)
            long start = System.currentTimeMillis() + LEAD_MS;
            long end = start + 1500;
            DriverProcess heavy = DriverProcess.start("heavy", 5, List.of("--name", "heavy", "--mode", "closed",
                    "--clients", "3", "--target", server.uri("/heavy").toString(), "--window-start-ms",
                    Long.toString(start), "--window-end-ms", Long.toString(end), "--out", tmp.resolve("h.json").toString()),
                    tmp.resolve("h.json"), tmp.resolve("h.log"));
            DriverProcess light = DriverProcess.start("light", 0, List.of("--name", "light", "--mode", "open", "--rate",
                    "40", "--clients", "10", "--target", server.uri("/light") + "?i={i}", "--ids", "1000",
                    "--window-start-ms", Long.toString(start), "--window-end-ms", Long.toString(end), "--out",
                    tmp.resolve("l.json").toString()), tmp.resolve("l.json"), tmp.resolve("l.log"));
            Thread.sleep(500);
            Integer ownNice = Proc.nice(ProcessHandle.current().pid());
            if (ownNice != null) {
                assertThat(heavy.nice()).as("nice -n 5 on top of ours").isEqualTo(Math.min(19, ownNice + 5));
                assertThat(light.nice()).isEqualTo(ownNice);
            }
            LoadResult h = heavy.await(30_000);
            LoadResult l = light.await(30_000);
            // both windows begin once the wall clock reaches the same instant (a niced JVM on a busy machine
            // may get there late, never early) and end at the same instant
            assertThat(h.windowStartMs()).isBetween(start, end - 1);
            assertThat(l.windowStartMs()).isBetween(start, end - 1);
            ClassResult hc = h.get("heavy");
            assertThat(hc.mode()).isEqualTo("closed");
            assertThat(hc.requests()).isPositive();
            assertThat(hc.errors()).isZero();
            assertThat(hc.p50Ms()).as("the handler sleeps 20 ms").isGreaterThanOrEqualTo(20.0);
            ClassResult lc = l.get("light");
            assertThat(lc.mode()).isEqualTo("open");
            assertThat(lc.targetRatePerS()).isEqualTo(40.0);
            assertThat(lc.requests()).isPositive();
            assertThat(items).as("{i} was replaced").allMatch(q -> q.matches("i=\\d+")).hasSizeGreaterThan(1);
        }
    }

    @Test
    void withFifoTheLightDriversSendingThreadsAndOnlyThemAreInSchedFifo() throws Exception {
        String refused = io.qosweaver.bench.load.RealtimeThreads.probe(1);
        org.junit.jupiter.api.Assumptions.assumeTrue(refused == null, () -> "SCHED_FIFO refused here: " + refused);
        try (TestServer server = new TestServer().route("/light", q -> Reply.ok("l"))) {
            long start = System.currentTimeMillis() + LEAD_MS;
            long end = start + 1500;
            DriverProcess light = DriverProcess.start("light", 0, List.of("--name", "light", "--mode", "open", "--rate",
                    "20", "--clients", "3", "--transport", "socket", "--fifo", "1", "--target",
                    server.uri("/light").toString(), "--window-start-ms", Long.toString(start), "--window-end-ms",
                    Long.toString(end), "--out", tmp.resolve("f.json").toString()), tmp.resolve("f.json"),
                    tmp.resolve("f.log"));
            while (System.currentTimeMillis() < start + 500) {
                Thread.sleep(50);
            }
            Integer fifo = Proc.threadsInPolicy(light.pid(), 1);
            Integer other = Proc.threadsInPolicy(light.pid(), 0);
            Mixed.checkLightFifo(new MixedParams(1, 20, 3, 0, 1, 1, 0), light);
            LoadResult l = light.await(30_000);
            assertThat(fifo).as("its three socket senders").isEqualTo(3);
            assertThat(other).as("the JVM's own threads stay in the fair class").isGreaterThan(5);
            assertThat(l.get("light").requests()).isPositive();
            assertThat(l.get("light").errors()).isZero();
        }
    }

    @Test
    void paramsKeepTheirFifoWhereTheKernelAllowsItAndSayNothingWithoutOne() {
        MixedParams none = new MixedParams(1, 20, 2, 0, 1, 1, 0).withLightFifo(0);
        List<String> warnings = new java.util.ArrayList<>();
        assertThat(none.runnableHere(warnings::add)).isSameAs(none);
        MixedParams fifo = none.withLightFifo(1);
        String refused = io.qosweaver.bench.load.RealtimeThreads.probe(1);
        MixedParams here = fifo.runnableHere(warnings::add);
        if (refused == null) {
            assertThat(here).isSameAs(fifo);
            assertThat(warnings).isEmpty();
        } else {
            assertThat(here.lightFifo()).isZero();
            assertThat(warnings).singleElement().asString().startsWith("the light driver stays in the fair class")
                    .contains(refused);
        }
    }

    @Test
    void theHarnessRefusesAWindowWhoseLightDriverIsNotInFifo() throws Exception {
        try (TestServer server = new TestServer().route("/light", q -> Reply.ok("l"))) {
            long start = System.currentTimeMillis() + LEAD_MS;
            DriverProcess light = DriverProcess.start("light", 0, List.of("--name", "light", "--mode", "open", "--rate",
                    "20", "--clients", "2", "--transport", "socket", "--target", server.uri("/light").toString(),
                    "--window-start-ms", Long.toString(start), "--window-end-ms", Long.toString(start + 500), "--out",
                    tmp.resolve("n.json").toString()), tmp.resolve("n.json"), tmp.resolve("n.log"));
            try {
                while (System.currentTimeMillis() < start + 200) {
                    Thread.sleep(50);
                }
                Mixed.checkLightFifo(new MixedParams(1, 20, 2, 0, 1, 1, 0).withLightFifo(0), light);
                assertThatThrownBy(() -> Mixed.checkLightFifo(new MixedParams(1, 20, 2, 0, 1, 1, 0), light))
                        .hasMessageStartingWith("the light driver's sending threads are not in SCHED_FIFO 1 at the "
                                + "window's start");
            } finally {
                light.await(30_000);
            }
        }
    }

    @Test
    void aFailedDriverNamesItsError() throws Exception {
        DriverProcess bad = DriverProcess.start("light", 0, List.of("--name", "light", "--mode", "nope", "--target", "t",
                "--window-start-ms", "1", "--window-end-ms", "2", "--out", tmp.resolve("x.json").toString()),
                tmp.resolve("x.json"), tmp.resolve("x.log"));
        assertThatThrownBy(() -> bad.await(30_000)).hasMessageContaining("the light driver failed (exit 2)")
                .hasMessageContaining("--mode: closed or open, got 'nope'");
        assertThat(Files.exists(tmp.resolve("x.json"))).isFalse();
    }

    @Test
    void theDriverCommandPutsNiceInFrontOnlyWhenAsked() {
        assertThat(DriverProcess.command(10, "java", "cp", List.of("--a", "b")))
                .containsExactly("nice", "-n", "10", "java", "-Xmx256m", "-XX:+UseSerialGC", "-cp", "cp",
                        MixedDriver.class.getName(), "--a", "b");
        assertThat(DriverProcess.command(0, "java", "cp", List.of())).startsWith("java");
    }

    @Test
    void procStatIsReadWithSpacesInTheCommandName() {
        String stat = "123 (my (odd) cmd) S 1 2 3 4 5 6 7 8 9 10 250 30 0 0 20 7 1 0";
        String[] f = Proc.parseStat(stat);
        assertThat(f[1]).isEqualTo("my (odd) cmd");
        assertThat(f[13]).isEqualTo("250");
        assertThat(f[14]).isEqualTo("30");
        assertThat(f[18]).isEqualTo("7");
        assertThat(Proc.cpuMs(ProcessHandle.current().pid())).isNotNull().isPositive();
        assertThat(Proc.parseMachineBusyTicks("cpu  100 5 20 9000 7 1 2 3 0 0")).as("user nice system irq softirq steal")
                .isEqualTo(131);
        assertThat(Proc.machineBusyMs()).isNotNull().isPositive();
    }

    @Test
    void aPutOrPostSendsTheBodyFileFromMemory() throws Exception {
        Path doc = tmp.resolve("doc.bin");
        Files.write(doc, new byte[] {1, 2, 3, 4, 5});
        MixedDriver.Args a = MixedDriver.Args.parse(args("--name", "heavy", "--mode", "closed", "--target", "http://h/t",
                "--method", "put", "--body", doc.toString(), "--content-type", "application/pdf",
                "--window-start-ms", "1", "--window-end-ms", "2", "--out", "o"));
        Files.delete(doc); // read once, at parse time: the load never touches the file
        assertThat(a.spec().body().method()).isEqualTo("PUT");
        assertThat(a.spec().body().bytes()).containsExactly(1, 2, 3, 4, 5);
        assertThat(a.spec().body().contentType()).isEqualTo("application/pdf");
        MixedDriver.Args get = MixedDriver.Args.parse(args("--name", "light", "--mode", "closed", "--target", "http://h/t",
                "--window-start-ms", "1", "--window-end-ms", "2", "--out", "o"));
        assertThat(get.spec().body().method()).isEqualTo("GET");
    }

    @Test
    void aBodyWithoutItsMethodOrFileIsAnError() {
        String[] window = {"--window-start-ms", "1", "--window-end-ms", "2", "--out", "o"};
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "x", "--mode", "closed", "--target", "t",
                "--body", "f"), window))).hasMessage("--body needs --method PUT or POST (a GET sends no body)");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "x", "--mode", "closed", "--target", "t",
                "--method", "POST", "--content-type", "text/plain"), window))).hasMessage("--method POST needs --body");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "x", "--mode", "closed", "--target", "t",
                "--method", "POST", "--body", "f"), window))).hasMessage("--method POST needs --content-type");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "x", "--mode", "closed", "--target", "t",
                "--method", "PATCH"), window))).hasMessage("--method: GET, PUT or POST, got 'PATCH'");
        assertThatThrownBy(() -> MixedDriver.Args.parse(concat(args("--name", "x", "--mode", "closed", "--target", "t",
                "--method", "PUT", "--body", tmp.resolve("missing").toString(), "--content-type", "text/plain"), window)))
                .hasMessageStartingWith("--body: cannot read " + tmp.resolve("missing"));
    }

    @Test
    void aDriverJvmPutsTheBodyTheExperimentPassesIt() throws Exception {
        Path doc = tmp.resolve("doc.txt");
        Files.writeString(doc, "x".repeat(10_000));
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (TestServer server = new TestServer().routeExchange("/put", e -> {
            seen.add(e.method() + " " + e.contentType() + " " + e.body().length);
            return Reply.ok("ok");
        })) {
            long start = System.currentTimeMillis() + LEAD_MS;
            Mixed.Target target = new Mixed.Target(server.uri("/put").toString(),
                    new MixedApp.RequestBody("PUT", "doc.txt", "text/plain"), tmp);
            List<String> a = new java.util.ArrayList<>(List.of("--name", "heavy", "--mode", "closed", "--window-start-ms",
                    Long.toString(start), "--window-end-ms", Long.toString(start + 500), "--out",
                    tmp.resolve("p.json").toString()));
            a.addAll(target.driverArgs());
            LoadResult r = DriverProcess.start("heavy", 0, a, tmp.resolve("p.json"), tmp.resolve("p.log")).await(30_000);
            assertThat(r.get("heavy").requests()).isPositive();
            assertThat(r.get("heavy").errors()).isZero();
            assertThat(seen).isNotEmpty().allMatch(s -> s.equals("PUT text/plain 10000"));
        }
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
