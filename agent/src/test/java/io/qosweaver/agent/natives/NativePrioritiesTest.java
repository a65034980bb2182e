package io.qosweaver.agent.natives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ProcThreadStat;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JNA NativeThreads, loaded exactly as the agent loads it (the nested jna.jar in a private
 * loader), against the kernel: thread ids and nice values are checked in /proc.
 */
class NativePrioritiesTest {
    private static NativeThreads nt;

    @BeforeAll
    static void load() throws Exception {
        assumeTrue(NativePriorities.isLinux(), "Linux only");
        nt = NativePriorities.loadIsolated();
    }

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        NativeThreads.register(null);
    }

    /** Runs {@code body} on a fresh thread (whose nice this test may change), returns its result. */
    private static <T> T onFreshThread(Callable<T> body) throws Exception {
        CompletableFuture<T> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(body.call());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "nice-test");
        t.start();
        T r = f.get(10, TimeUnit.SECONDS);
        t.join(10_000);
        return r;
    }

    private static String status(String key) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(key + ":")) {
                return line.substring(key.length() + 1).trim();
            }
        }
        return "";
    }

    /** Root, CAP_SYS_NICE (bit 23) or an RLIMIT_NICE that allows nice -5 (20 - (-5) = 25). */
    private static boolean mayRaiseTo(int nice) throws Exception {
        if (status("Uid").split("\\s+")[1].equals("0")) {
            return true;
        }
        if ((Long.parseLong(status("CapEff"), 16) & (1L << 23)) != 0) {
            return true;
        }
        Matcher m = Pattern.compile("(?m)^Max nice priority\\s+(\\d+)").matcher(Files.readString(Path.of("/proc/self/limits")));
        return m.find() && Integer.parseInt(m.group(1)) >= 20 - nice;
    }

    @Test
    void theImplementationAndItsJnaLiveInAPrivateLoader() throws Exception {
        ClassLoader loader = nt.getClass().getClassLoader();
        assertThat(loader).isInstanceOf(NativePriorities.IsolatedLoader.class);
        assertThat(nt.getClass().getName()).isEqualTo(NativePriorities.IMPL);
        Class<?> ourJna = Class.forName("com.sun.jna.Native", false, loader);
        assertThat(ourJna.getClassLoader()).isSameAs(loader);
        // the test class path also has a JNA (provided scope): that one is a different class
        Class<?> theirs = Class.forName("com.sun.jna.Native", false, getClass().getClassLoader());
        assertThat(theirs).isNotSameAs(ourJna);
        // the SPI interface is shared, not copied
        assertThat(nt).isInstanceOf(NativeThreads.class);
        assertThat(nt.available()).isTrue();
        assertThat(nt.unavailableReason()).isNull();
    }

    @Test
    void gettidMatchesProcThreadSelf() throws Exception {
        assertThat(nt.currentNativeThreadId()).isEqualTo(LinuxThreads.currentTid()).isPositive();
        int[] other = onFreshThread(() -> new int[] {nt.currentNativeThreadId(), LinuxThreads.currentTid()});
        assertThat(other[0]).isEqualTo(other[1]).isNotEqualTo(nt.currentNativeThreadId());
        String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
        assertThat(link).endsWith("/task/" + nt.currentNativeThreadId());
    }

    @Test
    void niceFiveOnAFreshThreadIsWhatTheKernelShows() throws Exception {
        int me = nt.currentNativeThreadId();
        int mine = ProcThreadStat.nice(me);
        int[] r = onFreshThread(() -> {
            int tid = nt.currentNativeThreadId();
            nt.setNice(tid, 5);
            return new int[] {ProcThreadStat.nice(tid), nt.getNice(tid)};
        });
        assertThat(r[0]).as("field 19 of /proc/self/task/TID/stat").isEqualTo(5);
        assertThat(r[1]).as("getpriority").isEqualTo(5);
        assertThat(ProcThreadStat.nice(me)).as("only that thread changed").isEqualTo(mine);
    }

    /** Field 41 of /proc/self/task/TID/stat: the scheduling policy (5 is SCHED_IDLE). */
    private static int policyInProc(int tid) throws Exception {
        String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // fields from 3 on
        return Integer.parseInt(f[41 - 3]);
    }

    @Test
    void schedIdleIsWhatTheKernelShowsKeepsTheNiceValueIsInheritedAndIsLeftWithPrivilege() throws Exception {
        boolean privileged = mayRaiseTo(3);
        Object[] r = onFreshThread(() -> {
            int tid = nt.currentNativeThreadId();
            nt.setNice(tid, 3);
            nt.setIdle(tid, true);
            int[] seen = {policyInProc(tid), nt.isIdle(tid) ? 1 : 0, nt.getNice(tid), 0};
            // Linux gives a new thread its creator's policy, as it gives the nice value
            CompletableFuture<Boolean> child = new CompletableFuture<>();
            Thread c = new Thread(() -> {
                try {
                    child.complete(nt.isIdle(nt.currentNativeThreadId()));
                } catch (NativePriorityException e) {
                    child.completeExceptionally(e);
                }
            });
            c.start();
            seen[3] = child.get(10, TimeUnit.SECONDS) ? 1 : 0;
            try {
                nt.setIdle(tid, false);
                return new Object[] {seen, new int[] {policyInProc(tid), nt.isIdle(tid) ? 1 : 0, nt.getNice(tid)}};
            } catch (NativePriorityException e) {
                return new Object[] {seen, e};
            }
        });
        assertThat((int[]) r[0]).as("policy in /proc, isIdle, nice, the child's isIdle").containsExactly(5, 1, 3, 1);
        if (privileged) {
            assertThat(r[1]).as("running privileged").isInstanceOf(int[].class);
            assertThat((int[]) r[1]).as("SCHED_OTHER again, nice kept").containsExactly(0, 0, 3);
        } else {
            assertThat(r[1]).as("running unprivileged").isInstanceOf(NativePriorityException.class);
            assertThat(((NativePriorityException) r[1]).permissionDenied()).isTrue();
        }
    }

    /** A default left to the interface would answer "not supported" whatever JNA can do (SCHED_IDLE was). */
    @Test
    void theLazyLoaderForwardsEveryMethodOfTheInterface() throws Exception {
        for (java.lang.reflect.Method m : NativeThreads.class.getMethods()) {
            if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            assertThat(NativePriorities.Lazy.class.getDeclaredMethod(m.getName(), m.getParameterTypes()))
                    .as(m.getName()).isNotNull();
        }
    }

    @Test
    void anotherThreadCanBeSetByTid() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger tid = new AtomicInteger();
        Thread t = new Thread(() -> {
            tid.set(nt.currentNativeThreadId());
            started.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        started.await();
        try {
            nt.setNice(tid.get(), 7);
            assertThat(ProcThreadStat.nice(tid.get())).isEqualTo(7);
        } finally {
            done.countDown();
            t.join(5_000);
        }
    }

    @Test
    void raisingToMinusFiveWorksWithPrivilegeOrIsPermissionDenied() throws Exception {
        boolean privileged = mayRaiseTo(-5);
        Object r = onFreshThread(() -> {
            int tid = nt.currentNativeThreadId();
            try {
                nt.setNice(tid, -5);
                int[] seen = {ProcThreadStat.nice(tid), nt.getNice(tid), 0};
                nt.setNice(tid, -1); // getpriority's -1 is a value, not an error (errno decides)
                seen[2] = nt.getNice(tid);
                return seen;
            } catch (NativePriorityException e) {
                return e;
            }
        });
        if (privileged) {
            assertThat(r).as("running privileged").isInstanceOf(int[].class);
            assertThat((int[]) r).containsExactly(-5, -5, -1);
        } else {
            assertThat(r).as("running unprivileged").isInstanceOf(NativePriorityException.class);
            NativePriorityException e = (NativePriorityException) r;
            assertThat(e.permissionDenied()).as(e.getMessage()).isTrue();
            assertThat(e.errno()).isIn(NativePriorityException.EPERM, NativePriorityException.EACCES);
        }
    }

    @Test
    void anUnknownThreadIsEsrchNotPermission() {
        NativePriorityException e = catchThrowableOfType(NativePriorityException.class,
                () -> nt.setNice(Integer.MAX_VALUE, 0)); // above any pid_max
        assertThat(e.errno()).isEqualTo(NativePriorityException.ESRCH);
        assertThat(e.permissionDenied()).isFalse();
        assertThat(e.getMessage()).contains("setpriority");
        assertThat(catchThrowableOfType(NativePriorityException.class, () -> nt.getNice(Integer.MAX_VALUE)).errno())
                .isEqualTo(NativePriorityException.ESRCH);
    }

    private static SchedulerConfig linuxPriority() {
        return new SchedulerConfig(List.of(
                new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("chart", Map.of("importance", "low"))),
                new SchedulerConfig.PolicySpec("linux-priority", Map.of()));
    }

    @Test
    void theLinuxPriorityPolicyIsEffectiveWithTheRealImplementation() throws Exception {
        boolean privileged = mayRaiseTo(-20);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        NativeThreads.register(new NativePriorities.Lazy(new AgentLog(new PrintStream(buf, true), false)));
        PriorityReport r = Scheduler.install(linuxPriority()).stats().priority();
        assertThat(r.mechanism()).isEqualTo("linux-nice");
        assertThat(r.effective()).as(r.reason()).isEqualTo(privileged);
        if (!privileged) {
            assertThat(r.reason()).startsWith("EPERM");
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void whenJnaCannotLoadOneWarningAndThePolicySaysWhy() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        AtomicInteger attempts = new AtomicInteger();
        NativeThreads lazy = new NativePriorities.Lazy(new AgentLog(new PrintStream(buf, true), false), () -> {
            attempts.incrementAndGet();
            throw new UnsatisfiedLinkError("Unable to load library 'jnidispatch': /tmp is noexec");
        });
        NativeThreads.register(lazy);
        PriorityReport r = Scheduler.install(linuxPriority()).stats().priority();
        assertThat(r.effective()).isFalse();
        assertThat(r.reason()).contains("JNA could not be loaded").contains("noexec");
        assertThat(lazy.available()).isFalse();
        assertThat(lazy.currentNativeThreadId()).isEqualTo(LinuxThreads.currentTid());
        assertThat(lazy.getNice(lazy.currentNativeThreadId())).isBetween(-20, 19);
        assertThat(catchThrowableOfType(NativePriorityException.class, () -> lazy.setNice(1, 0)).permissionDenied()).isFalse();
        assertThat(attempts).hasValue(1);
        String log = buf.toString(StandardCharsets.UTF_8);
        assertThat(log.lines()).hasSize(1);
        assertThat(log).startsWith("[qosweaver] WARNING native thread priorities unavailable: JNA could not be loaded"
                + " (UnsatisfiedLinkError: Unable to load library 'jnidispatch': /tmp is noexec)");
    }
}
