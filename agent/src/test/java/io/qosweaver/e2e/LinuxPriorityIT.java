package io.qosweaver.e2e;

import static io.qosweaver.e2e.ChildJvms.get;
import static io.qosweaver.e2e.ChildJvms.metric;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the linux-priority policy under -javaagent, with the agent's JNA implementation of
 * the scheduler's NativeThreads SPI. The child's class path has no JNA: the agent's nested copy
 * must do. Whether nice -20 is allowed decides the expected metric (root here: 1).
 */
class LinuxPriorityIT {
    private static Path agentJar;
    private static String appClassPath;
    private static final Pattern APP_PORT = Pattern.compile("PORT=(\\d+)");
    private static final Pattern METRICS_PORT = Pattern.compile("\\[qosweaver] metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
    private static final Pattern EFFECTIVE = Pattern.compile(
            "(?m)^qosweaver_priority_effective\\{mechanism=\"linux-nice\",reason=\"([^\"]*)\"} (\\d)$");
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
            policy:
              name: linux-priority
            """;

    @BeforeAll
    static void locate() {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().startsWith("linux"), "Linux only");
        agentJar = ChildJvms.agentJar();
        appClassPath = ChildJvms.appClassPath();
        assertThat(appClassPath).as("the app must not bring JNA").doesNotContain("jna");
    }

    @BeforeEach
    void jvms() {
        jvms = new ChildJvms(dir);
    }

    @AfterEach
    void stop() {
        jvms.stopAll();
    }

    private ChildJvms.Child launch(String... jvmOptions) throws Exception {
        return launchApp(POLICY, appClassPath, E2eApp.class.getName(), jvmOptions);
    }

    private ChildJvms.Child launchApp(String policyText, String classPath, String mainClass, String... jvmOptions)
            throws Exception {
        Path policy = Files.writeString(dir.resolve("policy.yaml"), policyText);
        ChildJvms.Child c = jvms.start(List.of(jvmOptions), "policy=" + policy + ",metricsPort=0", classPath,
                mainClass);
        await().atMost(60, TimeUnit.SECONDS).until(() -> c.port(APP_PORT, c.out()) > 0 || !c.process().isAlive());
        assertThat(c.process().isAlive()).as(c.err()).isTrue();
        return c;
    }



    private static boolean mayRaiseToMinus20() throws Exception {
        String status = Files.readString(Path.of("/proc/self/status"));
        Matcher uid = Pattern.compile("(?m)^Uid:\\s+\\d+\\s+(\\d+)").matcher(status);
        Matcher cap = Pattern.compile("(?m)^CapEff:\\s+([0-9a-f]+)").matcher(status);
        return uid.find() && uid.group(1).equals("0")
                || cap.find() && (Long.parseLong(cap.group(1), 16) & (1L << 23)) != 0;
    }

    @Test
    void linuxPriorityPolicyIsEffectiveThroughTheAgentsJna() throws Exception {
        ChildJvms.Child c = launch();
        String err = c.err();
        int port = c.port(APP_PORT, Files.readString(c.stdout()));
        int mport = c.port(METRICS_PORT, err);
        assertThat(mport).as(err).isPositive();
        for (int i = 0; i < 5; i++) {
            assertThat(get(port, "/work")).startsWith("work ");
        }
        String metrics = get(mport, "/metrics");
        Matcher m = EFFECTIVE.matcher(metrics);
        assertThat(m.find()).as(metrics).isTrue();
        assertThat(c.err()).doesNotContain("native thread priorities unavailable")
                .doesNotContain("no native implementation registered");
        if (mayRaiseToMinus20()) {
            assertThat(m.group(2)).as(m.group(1)).isEqualTo("1");
            assertThat(m.group(1)).isEqualTo("setpriority: high nice -20, low nice 19");
            // the collector (every 50 ms) and the 5 requests each went in and out of a scope
            await().atMost(10, TimeUnit.SECONDS).until(() ->
                    metric(get(mport, "/metrics"), "qosweaver_priority_changes_total") >= 10 + 4);
            assertThat(metric(get(mport, "/metrics"), "qosweaver_priority_failures_total")).isZero();
        } else {
            assertThat(m.group(2)).isEqualTo("0");
            assertThat(m.group(1)).startsWith("EPERM").contains("may not raise thread priorities");
        }
        assertThat(metric(metrics, "qosweaver_agent_unscheduled")).isZero();
    }

    @Test
    void theImportancePolicysLowNiceReachesRequestThreadsThroughTheAgentsJna() throws Exception {
        ChildJvms.Child c = launchApp(POLICY.replace("name: linux-priority", "name: importance\n  lowNice: 19"),
                appClassPath, E2eApp.class.getName());
        String err = c.err();
        int port = c.port(APP_PORT, Files.readString(c.stdout()));
        int mport = c.port(METRICS_PORT, err);
        for (int i = 0; i < 5; i++) {
            assertThat(get(port, "/work")).startsWith("work ");
        }
        Matcher m = EFFECTIVE.matcher(get(mport, "/metrics"));
        assertThat(m.find()).isTrue();
        if (mayRaiseToMinus20()) {
            assertThat(m.group(2)).as(m.group(1)).isEqualTo("1");
            assertThat(m.group(1)).isEqualTo("setpriority: low nice 19");
            // each request's thread went to 19 and back; the collector (high, no highNice) is not touched
            String metrics = get(mport, "/metrics");
            assertThat(metric(metrics, "qosweaver_priority_changes_total")).isEqualTo(10);
            assertThat(metric(metrics, "qosweaver_priority_failures_total")).isZero();
        } else {
            assertThat(m.group(2)).isEqualTo("0");
            assertThat(m.group(1)).startsWith("EPERM");
            assertThat(err).contains("policy importance cannot apply Linux priorities");
        }
    }

    @Test
    void theImportancePolicysCompilerNiceRestsTheJitsCompilerThreadsInSchedIdle() throws Exception {
        ChildJvms.Child c = launchApp(POLICY.replace("name: linux-priority", "name: importance\n  compilerNice: idle"),
                appClassPath, E2eApp.class.getName());
        int port = c.port(APP_PORT, Files.readString(c.stdout()));
        for (int i = 0; i < 20; i++) { // some work for the compilers
            assertThat(get(port, "/work")).startsWith("work ");
        }
        long pid = c.process().pid();
        Map<Integer, Integer> compilers = compilerPolicies(pid);
        assertThat(compilers).as("compiler threads of " + pid).isNotEmpty();
        String err = c.err();
        if (mayRaiseToMinus20()) {
            assertThat(err).doesNotContain("compiler threads cannot rest");
            assertThat(compilers.values()).as("scheduling policy by compiler thread: " + compilers)
                    .containsOnly(SCHED_IDLE);
        } else if (err.contains("compiler threads cannot rest")) {
            assertThat(compilers.values()).as("left in SCHED_IDLE without the right to leave it").doesNotContain(SCHED_IDLE);
        } else {
            assertThat(compilers.values()).containsOnly(SCHED_IDLE);
        }
        assertThat(get(port, "/work")).startsWith("work ");
    }

    private static final int SCHED_IDLE = 5;

    /** The scheduling policy (field 41 of its stat) of every JIT compiler thread of {@code pid}, by thread id. */
    private static Map<Integer, Integer> compilerPolicies(long pid) throws Exception {
        Map<Integer, Integer> out = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                String comm;
                String stat;
                try {
                    comm = Files.readString(task.resolve("comm")).strip();
                    stat = Files.readString(task.resolve("stat"));
                } catch (java.nio.file.NoSuchFileException ended) { // the JVM stopped an idle compiler thread
                    continue;
                }
                if (!comm.startsWith("C1 CompilerThre") && !comm.startsWith("C2 CompilerThre")) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
                out.put(Integer.parseInt(task.getFileName().toString()), Integer.parseInt(f[41 - 3]));
            }
        }
        return out;
    }

    @Test
    void withoutLoadableJnaTheAppRunsAndThePolicySaysWhy() throws Exception {
        // no system libjnidispatch, and JNA may not extract its own: Native cannot initialise
        ChildJvms.Child c = launch("-Djna.nosys=true", "-Djna.noclasspath=true");
        String err = c.err();
        int port = c.port(APP_PORT, Files.readString(c.stdout()));
        assertThat(get(port, "/work")).startsWith("work ");
        String metrics = get(c.port(METRICS_PORT, err), "/metrics");
        Matcher m = EFFECTIVE.matcher(metrics);
        assertThat(m.find()).as(metrics).isTrue();
        assertThat(m.group(2)).isEqualTo("0");
        assertThat(m.group(1)).contains("JNA could not be loaded");
        assertThat(err.lines().filter(l -> l.contains("native thread priorities unavailable")).count())
                .as(err).isEqualTo(1);
        assertThat(err).contains("[qosweaver] WARNING native thread priorities unavailable: JNA could not be loaded");
        assertThat(err).doesNotContain("Exception in thread");
    }

    @Test
    void anApplicationWithItsOwnJnaKeepsItAndTheAgentUsesItsPrivateCopy() throws Exception {
        String jna = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> Path.of(e).getFileName().toString().matches("jna-\\d.*\\.jar"))
                .findFirst().orElseThrow(() -> new AssertionError("no JNA on the test class path"));
        ChildJvms.Child c = launchApp(POLICY, appClassPath + File.pathSeparator + jna, E2eJnaApp.class.getName());
        String out = Files.readString(c.stdout());
        // the application's JNA is its own (system class loader), and it works
        assertThat(out).containsPattern("APP_JNA pid=" + c.process().pid() + " version=\\S+ loader=AppClassLoader");
        String err = c.err();
        int port = c.port(APP_PORT, out);
        assertThat(get(port, "/work")).startsWith("work ");
        Matcher m = EFFECTIVE.matcher(get(c.port(METRICS_PORT, err), "/metrics"));
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).doesNotContain("JNA could not be loaded");
        assertThat(m.group(2)).isEqualTo(mayRaiseToMinus20() ? "1" : "0");
        assertThat(c.err()).doesNotContain("native thread priorities unavailable");
    }
}
