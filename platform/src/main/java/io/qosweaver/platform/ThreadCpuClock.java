package io.qosweaver.platform;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Per-thread CPU time from the JVM ({@code clock_gettime(CLOCK_THREAD_CPUTIME_ID)} on Linux: a
 * few hundred nanoseconds for the calling thread, about a microsecond for another). Too dear for
 * every control point: policies that account CPU time sample it at a cadence (a tick, a scope
 * exit) and say what accuracy that gives.
 */
public interface ThreadCpuClock {

    /** CPU time the thread has used, in nanoseconds, or -1 when unsupported (virtual threads, ended). */
    long cpuNanos(Thread thread);

    /** The JVM's clock; answers -1 everywhere when the JVM does not support thread CPU time. */
    static ThreadCpuClock jvm() {
        return JvmCpuClock.INSTANCE;
    }
}

/** {@link ThreadMXBean} behind {@link ThreadCpuClock}. */
final class JvmCpuClock implements ThreadCpuClock {
    static final JvmCpuClock INSTANCE = new JvmCpuClock();
    private final ThreadMXBean bean;
    private final boolean supported;

    private JvmCpuClock() {
        ThreadMXBean b = null;
        boolean ok = false;
        try {
            b = ManagementFactory.getThreadMXBean();
            ok = b.isThreadCpuTimeSupported();
            if (ok && !b.isThreadCpuTimeEnabled()) {
                b.setThreadCpuTimeEnabled(true);
            }
        } catch (RuntimeException | Error e) {
            ok = false;
        }
        bean = b;
        supported = ok;
    }

    @Override
    @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+, this is Java 17 bytecode
    public long cpuNanos(Thread thread) {
        if (!supported) {
            return -1;
        }
        try {
            return thread == Thread.currentThread()
                    ? bean.getCurrentThreadCpuTime() : bean.getThreadCpuTime(thread.getId());
        } catch (RuntimeException e) {
            return -1; // virtual threads on some JDKs: UnsupportedOperationException
        }
    }
}
