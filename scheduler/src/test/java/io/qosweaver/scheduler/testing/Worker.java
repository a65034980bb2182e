package io.qosweaver.scheduler.testing;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.core.Controller;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** Test helper: a thread that enters a task class and passes control points until stopped. */
public final class Worker implements Runnable {
    public final String taskClass;
    public final AtomicLong passes = new AtomicLong();
    public final Thread thread;
    public volatile boolean stop;
    public volatile boolean interruptSeenAfterControlPoint;
    public volatile boolean done;
    /** The thread's priority right after it left its scope (pooled threads must get NORM back). */
    public volatile int priorityAfterExit = -1;

    public Worker(String taskClass, String name) {
        this.taskClass = taskClass;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    public static Worker start(String taskClass, String name) {
        Worker w = new Worker(taskClass, name);
        w.thread.start();
        return w;
    }

    @Override
    public void run() {
        QoS.enter(taskClass);
        try {
            while (!stop) {
                QoS.controlPoint();
                passes.incrementAndGet();
                if (Thread.currentThread().isInterrupted()) {
                    interruptSeenAfterControlPoint = true;
                    return;
                }
                LockSupport.parkNanos(200_000); // "work" between control points, without burning CPU
            }
        } finally {
            QoS.exit();
            priorityAfterExit = Thread.currentThread().getPriority();
            done = true;
        }
    }

    /** Parked inside the scheduler (not in the worker's own "work" park). */
    public boolean parkedInScheduler() {
        return LockSupport.getBlocker(thread) instanceof Controller;
    }
}
