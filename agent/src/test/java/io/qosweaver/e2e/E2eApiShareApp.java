package io.qosweaver.e2e;

import com.sun.tools.attach.VirtualMachine;
import io.qosweaver.api.Share;
import io.qosweaver.api.Shares;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A program that asks for its shares through the Java API: one CPU-bound thread in a share of
 * 70 %, one in 20 %, each calling {@link Shares#controlPoint()} between steps of a few
 * microseconds. Arguments: {@code RUN_MS} (started under {@code -javaagent}), or {@code RUN_MS
 * AGENT_JAR AGENT_ARGS}: it then uses the API first, without the agent (prints {@code
 * BEFORE scheduled=false}), and attaches the agent to itself before the measured run. Prints
 * {@code SCHEDULED=.. BIG_CPU_MS=.. SMALL_CPU_MS=.. WALL_MS=..} and waits to be killed.
 */
public final class E2eApiShareApp {
    private E2eApiShareApp() {}

    /** The policy file's one class: never called. */
    static void never() {}

    static volatile boolean stop;
    static volatile long sink;

    public static void main(String[] args) throws Exception {
        long runMs = Long.parseLong(args[0]);
        Share big = Shares.share("big", 0.7), small = Shares.share("small", 0.2);
        if (args.length == 3) {
            try (Share.Scope s = big.enter()) { // before the agent: a no-op that pairs
                sink += work(1);
            }
            System.out.println("BEFORE scheduled=" + Shares.scheduled());
            VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
            try {
                vm.loadAgent(args[1], args[2]);
            } finally {
                vm.detach();
            }
        }
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Thread tb = new Thread(() -> big.run(E2eApiShareApp::spin), "big");
        Thread ts = new Thread(() -> small.run(E2eApiShareApp::spin), "small");
        tb.setDaemon(true);
        ts.setDaemon(true);
        tb.start();
        ts.start();
        Thread.sleep(500); // warm-up: the JIT, the first rounds of the service list
        long b0 = cpu(mx, tb), s0 = cpu(mx, ts), t0 = System.nanoTime();
        Thread.sleep(runMs);
        long bigMs = (cpu(mx, tb) - b0) / 1_000_000, smallMs = (cpu(mx, ts) - s0) / 1_000_000;
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("SCHEDULED=" + Shares.scheduled() + " BIG_CPU_MS=" + bigMs + " SMALL_CPU_MS=" + smallMs
                + " WALL_MS=" + wallMs);
        System.out.flush();
        Thread.sleep(60_000);
        stop = true;
    }

    private static void spin() {
        long x = 1;
        while (!stop) {
            x = work(x);
            Shares.controlPoint();
        }
        sink += x;
    }

    /** A few microseconds of arithmetic. */
    static long work(long x) {
        for (int i = 0; i < 2_000; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    @SuppressWarnings("deprecation") // getId: Java 17
    private static long cpu(ThreadMXBean mx, Thread t) {
        return mx.getThreadCpuTime(t.getId());
    }
}
