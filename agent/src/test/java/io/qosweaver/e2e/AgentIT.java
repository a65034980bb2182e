package io.qosweaver.e2e;

import static io.qosweaver.e2e.ChildJvms.get;
import static io.qosweaver.e2e.ChildJvms.metric;
import static io.qosweaver.e2e.ChildJvms.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end: the shaded agent jar with -javaagent on a real Jetty 12 ee10 server in a child JVM.
 * The child's class path holds only Jetty, the servlet API and the test app, never the scheduler,
 * Byte Buddy or SnakeYAML: everything the agent needs must come from its own jar.
 */
class AgentIT {
    private static Path agentJar;
    private static String appClassPath;
    private static final HttpClient HTTP = ChildJvms.HTTP;
    private ChildJvms jvms;

    @TempDir
    Path dir;

    static final String POLICY = """
            taskClasses:
              - name: collector
                entry: execution(void io.qosweaver.e2e.E2eApp.collect())
                importance: high
              - name: work
                servletPath: /work
                importance: low
            controlPoints:
              - call(int io.qosweaver.e2e.E2eApp.step(int)) && withincode(* io.qosweaver.e2e.E2eApp$WorkServlet.doGet(..))
            policy:
              name: importance
              lowLimit: 1
            """;

    @BeforeAll
    static void locate() {
        agentJar = ChildJvms.agentJar();
        appClassPath = ChildJvms.appClassPath();
    }

    @BeforeEach
    void jvms() {
        jvms = new ChildJvms(dir);
    }

    @AfterEach
    void stop() {
        jvms.stopAll();
    }

    private ChildJvms.Child launch(String agentArgs, String mainClass, String classPath, String... args)
            throws IOException {
        return jvms.start(List.of(), agentArgs, classPath, mainClass, args);
    }



    /**
     * The JVM appends -javaagent jars to the system class path, so any class the agent jar holds
     * under a third-party name could shadow or clash with the application's own copy.
     */
    @Test
    void agentJarHoldsOnlyOurPackagesAndNestedJars() throws Exception {
        List<String> foreign = new ArrayList<>();
        try (java.util.jar.JarFile jar = new java.util.jar.JarFile(agentJar.toFile())) {
            jar.stream().map(java.util.jar.JarEntry::getName)
                    .filter(n -> (n.endsWith(".class") && !n.startsWith("io/qosweaver/"))
                            || n.startsWith("META-INF/versions/"))
                    .forEach(foreign::add);
            assertThat(jar.getEntry("META-INF/qosweaver/qosweaver-agent-bootstrap.jar")).isNotNull();
        }
        assertThat(foreign).as("unrelocated entries in the agent jar").isEmpty();
    }

    @Test
    void wovenEntriesAndControlPointsAreCountedInMetrics() throws Exception {
        Path policy = Files.writeString(dir.resolve("policy.yaml"), POLICY);
        ChildJvms.Child c = launch("policy=" + policy + ",metricsPort=0", E2eApp.class.getName(), appClassPath);
        Pattern appPort = Pattern.compile("PORT=(\\d+)");
        Pattern metricsPort = Pattern.compile("\\[qosweaver] metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
        await().atMost(60, TimeUnit.SECONDS).until(() -> c.port(appPort, c.out()) > 0 || !c.process().isAlive());
        assertThat(c.process().isAlive()).as(c.err()).isTrue();
        String err = c.err();
        assertThat(err).contains("[qosweaver] agent started: policy " + policy + ", 2 task classes, 1 control-point pointcuts");
        int port = c.port(appPort, c.out());
        int mport = c.port(metricsPort, err);
        assertThat(mport).as(err).isPositive();

        for (int i = 0; i < 5; i++) {
            assertThat(get(port, "/work")).startsWith("work ");
            assertThat(get(port, "/light")).isEqualTo("light");
        }
        String metrics = get(mport, "/metrics");
        // the agent's own counters: one call site woven, the servlet service, the entry method
        assertThat(metric(metrics, "qosweaver_agent_unscheduled")).isZero();
        assertThat(metric(metrics, "qosweaver_agent_classes_woven_total")).as(metrics).isGreaterThanOrEqualTo(3);
        assertThat(metrics).containsPattern("qosweaver_agent_join_points_woven\\{kind=\"controlPoint\",pointcut=\"\\S+policy.yaml:9\"} 1");
        assertThat(metrics).containsPattern("qosweaver_agent_join_points_woven\\{kind=\"entry\",pointcut=\"\\S+policy.yaml:2\"} 1");
        assertThat(metric(metrics, "qosweaver_agent_unmatched_pointcuts")).isZero();
        // the scheduler's: 5 /work requests x 100 woven control points, run inside the "work" task class
        assertThat(metrics).contains("qosweaver_running_threads{task_class=\"work\"}");
        Matcher cps = Pattern.compile("(?m)^qosweaver_control_points\\S* (\\S+)$").matcher(metrics);
        assertThat(cps.find()).as(metrics).isTrue();
        assertThat(Double.parseDouble(cps.group(1))).as(metrics).isGreaterThanOrEqualTo(500);

        // the timeline: each /work request entered and left the "work" class
        String timeline = get(mport, "/timeline?since=0");
        assertThat(timeline).startsWith("# qosweaver timeline: seq epoch_ms class members parked running\n");
        assertThat(timeline.lines().filter(l -> l.matches("\\d+ \\d+\\.\\d{3} work [01] 0 [01]")).count())
                .as(timeline).isEqualTo(10);
        Matcher next = Pattern.compile("# next (\\d+) dropped 0").matcher(timeline);
        assertThat(next.find()).as(timeline).isTrue();
        // continuing from "next" repeats nothing of the work (the test app's collector may add lines of its own)
        assertThat(get(mport, "/timeline?since=" + next.group(1)).lines().filter(l -> l.contains(" work ")).count())
                .as("no work event repeated").isZero();
        HttpResponse<String> bad = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mport
                + "/timeline?since=x")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("bad query 'since=x'");

        // control-point intervals: off until asked, then a histogram for the task class
        assertThat(get(mport, "/intervals/status")).isEqualTo("off\n");
        assertThat(metric(get(mport, "/metrics"), "qosweaver_interval_measurement")).isZero();
        assertThat(post(mport, "/intervals/start")).isEqualTo("measuring\n");
        for (int i = 0; i < 5; i++) {
            get(port, "/work");
        }
        assertThat(post(mport, "/intervals/stop")).isEqualTo("off\n");
        assertThat(post(mport, "/intervals/stop")).isEqualTo("off (already)\n");
        String measured = get(mport, "/metrics");
        Matcher count = Pattern.compile("(?m)^qosweaver_control_point_interval_seconds_count\\{task_class=\"work\"} (\\d+)$")
                .matcher(measured);
        assertThat(count.find()).as(measured).isTrue();
        assertThat(Long.parseLong(count.group(1))).as("5 requests x 99 intervals between 100 control points")
                .isEqualTo(5 * 99);
        HttpResponse<String> wrong = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + mport
                + "/intervals/start")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(wrong.statusCode()).as("GET cannot switch it").isEqualTo(405);
    }


    /**
     * {@code request:} task classes on a real servlet container (Jetty 12 ee10, through the servlet
     * unit): by path, method and a header's regular expression, in the file's order, beside a
     * {@code servletPath} class; a request no class selects stays unmanaged.
     */
    @Test
    void requestClassesSelectByPathMethodAndHeaderInAServletContainer() throws Exception {
        Path policy = Files.writeString(dir.resolve("request.yaml"), """
                taskClasses:
                  - name: gold
                    request: {path: /light, header: {name: X-Tenant, matches: "gold|platinum"}}
                    importance: high
                  - name: posts
                    request: {path: [/work, /work/*], method: POST}
                    importance: low
                  - name: light
                    servletPath: /light
                    importance: low
                policy:
                  name: importance
                """);
        App app = startWithMetrics(policy, E2eApp.class.getName(), appClassPath);
        int port = app.port();
        int mport = app.metricsPort();
        URI light = URI.create("http://127.0.0.1:" + port + "/light");
        for (String tenant : List.of("gold", "platinum", "golden")) {
            assertThat(HTTP.send(HttpRequest.newBuilder(light).header("X-Tenant", tenant).build(),
                    HttpResponse.BodyHandlers.ofString()).body()).isEqualTo("light");
        }
        assertThat(get(port, "/light")).isEqualTo("light");
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/work"))
                    .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).as("the servlet has no doPost").isEqualTo(405);
        }
        assertThat(get(port, "/work")).startsWith("work ");

        Map<String, Long> lines = timelineLines(mport);
        assertThat(lines).containsEntry("gold", 4L).containsEntry("light", 4L).containsEntry("posts", 4L)
                .doesNotContainKey("work");
        assertThat(get(mport, "/metrics")).containsPattern(
                "qosweaver_agent_join_points_woven\\{kind=\"request\",pointcut=\"\\S+request.yaml:2\"} [1-9]");
    }

    /**
     * On a server that routes nothing through a servlet (a Jetty 12 core handler), {@code request}
     * classes are classified at Jetty's own entry, and control points run inside them.
     */
    @Test
    void requestClassesWorkWithoutAnyServletOnJetty12() throws Exception {
        Path policy = Files.writeString(dir.resolve("core.yaml"), """
                taskClasses:
                  - name: heavy
                    request: {path: /work/*}
                    importance: low
                  - name: other
                    request: {path: /*, method: GET}
                    importance: high
                controlPoints:
                  - call(int io.qosweaver.e2e.E2eWork.step(int)) && withincode(* io.qosweaver.e2e.E2eWork.work(..))
                policy:
                  name: importance
                """);
        App app = startWithMetrics(policy, E2eCoreApp.class.getName(), appClassPath);
        int port = app.port();
        int mport = app.metricsPort();
        assertThat(post(mport, "/intervals/start")).isEqualTo("measuring\n");
        for (int i = 0; i < 3; i++) {
            assertThat(get(port, "/work/x")).startsWith("core ");
        }
        assertThat(get(port, "/levels")).isEqualTo("core 0");
        Map<String, Long> lines = timelineLines(mport);
        assertThat(lines).containsEntry("heavy", 6L).containsEntry("other", 2L);
        String metrics = get(mport, "/metrics");
        assertThat(metrics).containsPattern("qosweaver_agent_join_points_woven\\{kind=\"request\",pointcut=\"\\S+core.yaml:2\"} 1");
        assertThat(metrics).as("the pool watch (Jetty's matched, Tomcat's not) is neither the file's pointcut nor unmatched")
                .contains("qosweaver_agent_pointcuts{kind=\"controlPoint\"} 1\n")
                .contains("qosweaver_agent_unmatched_pointcuts 0\n")
                .containsPattern("qosweaver_agent_join_points_woven\\{kind=\"poolWatch\",pointcut=\"\\(jetty pools, watched\\)\"} [1-9]");
        assertThat(intervalsIn(mport, "heavy")).as("3 requests x 99 intervals between 100 control points, in 'heavy'")
                .isEqualTo(3 * 99);
    }

    /**
     * Tomcat 11 through its Coyote adapter: requests are classified before Catalina maps them, so a
     * request that no servlet serves (the mapper's 404) is classified too, and control points in the
     * servlet run inside the request's class.
     */
    @Test
    void requestClassesOnTomcatAreClassifiedAtTheCoyoteAdapter() throws Exception {
        Path policy = Files.writeString(dir.resolve("tomcat.yaml"), """
                taskClasses:
                  - name: heavy
                    request: {path: /work, header: {name: X-Tenant, value: gold}}
                    importance: low
                  - name: unmapped
                    request: {path: /nothing/*}
                    importance: low
                  - name: async
                    request: {path: /async}
                    importance: low
                controlPoints:
                  - call(int io.qosweaver.e2e.E2eWork.step(int)) && withincode(* io.qosweaver.e2e.E2eWork.work(..))
                policy:
                  name: importance
                """);
        App app = startWithMetrics(policy, E2eTomcatApp.class.getName(), ChildJvms.tomcatClassPath());
        int port = app.port();
        int mport = app.metricsPort();
        assertThat(post(mport, "/intervals/start")).isEqualTo("measuring\n");
        URI work = URI.create("http://127.0.0.1:" + port + "/work");
        for (int i = 0; i < 3; i++) {
            assertThat(HTTP.send(HttpRequest.newBuilder(work).header("X-Tenant", "gold").build(),
                    HttpResponse.BodyHandlers.ofString()).body()).startsWith("work ");
        }
        assertThat(get(port, "/work")).as("no header: unmanaged").startsWith("work ");
        HttpResponse<String> none = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/nothing/here")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(get(port, "/async")).as("dispatched to /work").startsWith("work ");

        Map<String, Long> lines = timelineLines(mport);
        assertThat(lines).containsEntry("heavy", 6L).containsEntry("unmapped", 2L)
                .as("the async request in its class at its start and again when it resumes (asyncDispatch)")
                .containsEntry("async", 4L);
        String metrics = get(mport, "/metrics");
        assertThat(metrics).containsPattern(
                "qosweaver_agent_join_points_woven\\{kind=\"request\",pointcut=\"\\S+tomcat.yaml:2\"} [2-9]");
        assertThat(intervalsIn(mport, "heavy")).as("3 gold requests x 99 intervals, in 'heavy' (not the plain one)")
                .isEqualTo(3 * 99);
        assertThat(intervalsIn(mport, "async")).as("the resumed async request's work, in 'async'").isEqualTo(99);
    }

    /**
     * Undertow 2 with a blocking handler and no servlet: a request is classified on the worker
     * thread it is dispatched to, never on the IO thread that parsed it.
     */
    @Test
    void requestClassesOnUndertowAreClassifiedOnWorkerThreads() throws Exception {
        Path policy = Files.writeString(dir.resolve("undertow.yaml"), """
                taskClasses:
                  - name: heavy
                    request: {path: /work/*, method: GET}
                    importance: low
                  - name: io
                    request: {path: /io}
                    importance: low
                controlPoints:
                  - call(int io.qosweaver.e2e.E2eWork.step(int)) && withincode(* io.qosweaver.e2e.E2eWork.work(..))
                policy:
                  name: importance
                """);
        App app = startWithMetrics(policy, E2eUndertowApp.class.getName(), ChildJvms.undertowClassPath());
        int port = app.port();
        int mport = app.metricsPort();
        assertThat(post(mport, "/intervals/start")).isEqualTo("measuring\n");
        for (int i = 0; i < 3; i++) {
            assertThat(get(port, "/work/x")).startsWith("undertow ");
        }
        assertThat(get(port, "/io")).as("answered on the IO thread").isEqualTo("io");
        Map<String, Long> lines = timelineLines(mport);
        assertThat(lines).containsEntry("heavy", 6L).doesNotContainKey("io");
        assertThat(intervalsIn(mport, "heavy")).as("3 requests x 99 intervals, in 'heavy'").isEqualTo(3 * 99);
    }

    /**
     * Jetty 9.4, 10 and 11 through {@code Server.handle(HttpChannel)}, and Tomcat 9 and 10 through
     * the Coyote adapter, each on its own class path of the jars the build copied; every request
     * ends in the server's own 404, and is classified before that.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jetty-9.4", "jetty-10", "jetty-11", "tomcat-9", "tomcat-10"})
    void requestClassesOnOlderServersAreClassifiedAtTheServersEntry(String server) throws Exception {
        Path jars = Path.of(System.getProperty("qosweaver.servers", "target/servers")).resolve(server);
        assertThat(jars).as("copied by the build (pre-integration-test)").isDirectory();
        String classPath;
        try (var files = Files.list(jars)) {
            classPath = files.map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator))
                    + java.io.File.pathSeparator + ChildJvms.testClasses();
        }
        Path policy = Files.writeString(dir.resolve("server.yaml"), """
                taskClasses:
                  - name: heavy
                    request: {path: /work/*, header: {name: X-Tenant, value: gold}}
                    importance: low
                policy:
                  name: importance
                """);
        String main = server.startsWith("jetty") ? E2eJettyChannelApp.class.getName() : E2eTomcatAnyApp.class.getName();
        App app = startWithMetrics(policy, main, classPath);
        assertThat(app.child().out()).contains("VERSION=" + server.substring(server.indexOf('-') + 1));
        for (String tenant : List.of("gold", "gold", "silver")) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port()
                    + "/work/x")).header("X-Tenant", tenant).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("the default handler's answer").isEqualTo(404);
        }
        assertThat(timelineLines(app.metricsPort())).containsEntry("heavy", 4L);
        assertThat(get(app.metricsPort(), "/metrics")).containsPattern(
                "qosweaver_agent_join_points_woven\\{kind=\"request\",pointcut=\"\\S+server.yaml:2\"} [1-9]");
    }

    @Test
    void requestClassesOnAJvmWithoutAnySupportedServerAreReportedOnce() throws Exception {
        Path policy = Files.writeString(dir.resolve("noserver.yaml"), """
                matchCheckSeconds: 1
                taskClasses:
                  - name: api
                    request: {path: /api/*}
                    importance: low
                policy:
                  name: importance
                """);
        ChildJvms.Child c = launch("policy=" + policy, E2eCoreApp.class.getName(), appClassPath, "idle");
        await().atMost(60, TimeUnit.SECONDS).until(() -> c.err().contains("have seen no supported server")
                || !c.process().isAlive());
        assertThat(c.err()).contains("task classes that select requests (" + policy + ":3: [api] in Jetty"
                + " Server.handle, Tomcat CoyoteAdapter.service, Undertow Connectors.executeRootHandler and Servlet.service)"
                + " have seen no supported server after 1 s");
        assertThat(c.err().split("no supported server", -1)).as("one line, not one per integration").hasSize(2);
        assertThat(c.err()).as("the agent's own pool watch is not reported as the file's unmatched pointcut")
                .doesNotContain("poolWatch").doesNotContain("pools, watched");
    }

    private record App(ChildJvms.Child child, int port, int metricsPort) {}

    /** The app under the agent with a metrics port, once it serves: its port and the agent's. */
    private App startWithMetrics(Path policy, String mainClass, String classPath, String... args) throws Exception {
        ChildJvms.Child c = launch("policy=" + policy + ",metricsPort=0", mainClass, classPath, args);
        Pattern appPort = Pattern.compile("PORT=(\\d+)");
        await().atMost(60, TimeUnit.SECONDS).until(() -> c.port(appPort, c.out()) > 0 || !c.process().isAlive());
        assertThat(c.process().isAlive()).as(c.err()).isTrue();
        return new App(c, c.port(appPort, c.out()),
                c.port(Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics"), c.err()));
    }

    /** How many control-point intervals threads in {@code taskClass} had since {@code /intervals/start}. */
    private static long intervalsIn(int metricsPort, String taskClass) throws Exception {
        Matcher m = Pattern.compile("(?m)^qosweaver_control_point_interval_seconds_count\\{task_class=\""
                + taskClass + "\"} (\\d+)$").matcher(get(metricsPort, "/metrics"));
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /**
     * Lines of the scheduler's timeline per task class (one per enter and one per exit of a lone
     * thread), once every request has left its class: a request's scope ends after the last byte of
     * its answer, so the client can read the timeline before the server thread has recorded the exit.
     * Waits up to 10 s for every class's count to be even (as many exits as enters).
     */
    private static Map<String, Long> timelineLines(int metricsPort) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            Map<String, Long> lines = get(metricsPort, "/timeline?since=0").lines().filter(l -> !l.startsWith("#"))
                    .map(l -> l.split(" ")[2]).collect(Collectors.groupingBy(n -> n, Collectors.counting()));
            if (lines.values().stream().allMatch(n -> n % 2 == 0) || System.nanoTime() - deadline > 0) {
                return lines;
            }
            Thread.sleep(10);
        }
    }

    @Test
    void brokenPolicyExitsNonZeroNamingFileAndLine() throws Exception {
        Path policy = Files.writeString(dir.resolve("broken.yaml"), POLICY.replace("lowLimit: 1", "lowLimt: 1")
                .replace("doGet(..))", "doGet(..)"));
        ChildJvms.Child c = launch("policy=" + policy, E2eApp.class.getName(), appClassPath);
        assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(c.process().exitValue()).as("a clean exit status, not the JVM's abort").isEqualTo(1);
        assertThat(c.err()).contains("[qosweaver] ERROR policy " + policy + ":9:")
                .contains("pointcut syntax error: expected ')' to close withincode(");
        assertThat(c.out()).doesNotContain("PORT=");
        assertThat(c.err()).doesNotContain("FATAL ERROR");
    }

    @Test
    void failOpenServesUnscheduled() throws Exception {
        Path policy = Files.writeString(dir.resolve("broken.yaml"), POLICY.replace("name: importance", "name: nosuch"));
        ChildJvms.Child c = launch("policy=" + policy + ",failOpen=true,metricsPort=0", E2eApp.class.getName(), appClassPath);
        Pattern appPort = Pattern.compile("PORT=(\\d+)");
        await().atMost(60, TimeUnit.SECONDS).until(() -> c.port(appPort, c.out()) > 0 || !c.process().isAlive());
        String err = c.err();
        assertThat(err).contains("[qosweaver] ERROR policy " + policy + ":11:").contains("UNSCHEDULED");
        int port = c.port(appPort, c.out());
        assertThat(get(port, "/work")).startsWith("work ");
        int mport = c.port(Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics"), err);
        assertThat(metric(get(mport, "/metrics"), "qosweaver_agent_unscheduled")).isEqualTo(1);
    }

    @Test
    void riverMonitorPolicyLoadsAndItsPointcutsMatch() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.repoRoot", "..")).toAbsolutePath();
        Path jar = root.resolve("examples/river-monitor/target/river-monitor.jar");
        if (!Files.exists(jar)) {
            System.err.println("SKIPPED riverMonitorPolicyLoadsAndItsPointcutsMatch: " + jar + " is absent"
                    + " (build examples/river-monitor first)");
        }
        Assumptions.assumeTrue(Files.exists(jar), "river-monitor.jar absent: " + jar);
        RiverMonitorCheck.run(jvms, root, jar);
    }
}
