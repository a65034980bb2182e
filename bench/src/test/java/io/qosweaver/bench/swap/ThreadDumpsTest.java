package io.qosweaver.bench.swap;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ThreadDumpsTest {
    private static final String DUMP = """
            2026-11-25 12:00:00
            Full thread dump OpenJDK 64-Bit Server VM (17.0.15+6 mixed mode, sharing):

            "qtp1-17" #17 prio=5 os_prio=0 cpu=10.00ms elapsed=9.00s tid=0x1 nid=0x11 waiting on condition  [0x1]
               java.lang.Thread.State: TIMED_WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
            \tat java.util.concurrent.locks.LockSupport.parkNanos(java.base@17.0.15/LockSupport.java:252)
            \tat io.qosweaver.scheduler.Scheduler.suspend(Scheduler.java:300)
            \tat io.qosweaver.scheduler.Scheduler.controlPoint(Scheduler.java:200)
            \tat sun.java2d.marlin.Renderer.endRendering(Renderer.java:1)
            \tat org.jfree.chart.JFreeChart.draw(JFreeChart.java:1)
            \tat org.rivermonitor.web.ChartServlet.doGet(ChartServlet.java:50)

            "qtp1-18" #18 prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x2 nid=0x12 waiting on condition  [0x2]
               java.lang.Thread.State: TIMED_WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
            \tat org.eclipse.jetty.util.thread.QueuedThreadPool.idleJobPoll(QueuedThreadPool.java:1)

            "qosweaver-ctl" #9 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=9.00s tid=0x3 nid=0x13 waiting on condition
               java.lang.Thread.State: WAITING (parking)
            \tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)
            \tat java.util.concurrent.LinkedBlockingQueue.take(java.base@17.0.15/LinkedBlockingQueue.java:435)
            \tat io.qosweaver.agent.control.LocalControl.commands(LocalControl.java:90)
            \tat java.lang.Thread.run(java.base@17.0.15/Thread.java:840)

            "collector" #20 prio=5 os_prio=0 cpu=900.00ms elapsed=9.00s tid=0x4 nid=0x14 runnable  [0x4]
               java.lang.Thread.State: RUNNABLE
            \tat io.qosweaver.scheduler.Scheduler.progressPoint(Scheduler.java:10)
            \tat org.rivermonitor.collector.Collector.collect(Collector.java:80)
            """;

    @Test
    void onlyApplicationThreadsParkedInQosweaverCodeCount() {
        assertThat(ThreadDumps.parkedInQosweaver(DUMP)).containsExactly("qtp1-17");
    }

    @Test
    void aCleanDumpHasNone() {
        assertThat(ThreadDumps.parkedInQosweaver(DUMP.substring(0, DUMP.indexOf("\"qtp1-18\"")).replace(
                "io.qosweaver.scheduler", "org.example.pool"))).isEmpty();
    }
}
