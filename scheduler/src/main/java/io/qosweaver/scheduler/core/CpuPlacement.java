package io.qosweaver.scheduler.core;

import io.qosweaver.platform.NativeThreads;

/**
 * Puts a thread promoted by a hand-off on the CPU of the runner it replaces. Woken by a plain
 * unpark, Linux queued the promoted thread on the CPU it last ran on, behind the runner there, and
 * the demoted runner's CPU idled once it parked, for 1-5 ms until a load balance moved one of them
 * (`bench/results/racetest/idle-turns-2026-11-25/`: 0.1-0.15 of 2 cores idle with 10 MTR-LS
 * runners). So the demoted runner, at its control point and about to park, restricts the promoted
 * thread to its own CPU before it unparks it ({@code sched_setaffinity} on a sleeping thread only
 * changes where it will wake); the promoted thread puts its CPU mask back as soon as it is awake,
 * under the controller's lock (so a pin and its undoing never cross).
 *
 * <p>Both steps are system calls through the registered {@link NativeThreads} (about a microsecond
 * each), made only at a hand-off, never at a control point that does not park. Placement is off
 * when the platform cannot tell the current CPU or read a mask (no native access, not Linux), for
 * virtual threads (their carrier is not theirs to pin), when the CPU is not in the thread's own mask
 * (a mask the application set is respected), and with {@code -Dqosweaver.placement=false}.
 */
final class CpuPlacement {
    /** Words of a CPU mask: 1024 CPUs, the size of glibc's {@code cpu_set_t}. */
    private static final int MASK_WORDS = 16;
    static final CpuPlacement OFF = new CpuPlacement(null);

    private final NativeThreads natives;
    /** One single-CPU mask per CPU number, made when first needed (written under the controller's lock). */
    private final long[][] single = new long[MASK_WORDS * 64][];
    /** Pins made and undone (stats and tests). */
    long pins, unpins;

    private CpuPlacement(NativeThreads natives) {
        this.natives = natives;
    }

    /** Placement with the registered platform, or {@link #OFF} when it cannot work here. */
    static CpuPlacement create() {
        if ("false".equals(System.getProperty("qosweaver.placement"))) {
            return OFF;
        }
        try {
            NativeThreads nt = NativeThreads.get();
            if (nt.currentCpu() < 0) {
                return OFF;
            }
            int self = nt.currentNativeThreadId();
            if (self <= 0 || !nt.getAffinityMask(self, new long[MASK_WORDS])) {
                return OFF;
            }
            return new CpuPlacement(nt);
        } catch (RuntimeException | LinkageError e) {
            return OFF; // no native access: plain wakes
        }
    }

    boolean enabled() {
        return natives != null;
    }

    /** On the owner thread, under the lock, before its first park: learns its kernel thread id. */
    void learn(ThreadState t) {
        if (t.tid != 0 || natives == null) {
            return;
        }
        int tid = VirtualThreads.isVirtual(t.thread) ? -1 : natives.currentNativeThreadId();
        t.tid = tid > 0 ? tid : -1;
    }

    /**
     * On the demoted runner, under the lock, about to park: restricts the parked successor {@code s}
     * to the CPU the caller runs on. Does nothing when {@code s}'s id is unknown, the CPU is not in
     * its mask, or a call fails.
     */
    void pin(ThreadState s) {
        if (natives == null || s.tid <= 0 || s.pinned) {
            return;
        }
        int cpu = natives.currentCpu();
        if (cpu < 0 || cpu >= single.length) {
            return;
        }
        long[] saved = s.savedMask;
        if (saved == null) {
            saved = s.savedMask = new long[MASK_WORDS];
        }
        if (!natives.getAffinityMask(s.tid, saved) || (saved[cpu >>> 6] & (1L << (cpu & 63))) == 0) {
            return;
        }
        long[] mask = single[cpu];
        if (mask == null) {
            mask = single[cpu] = new long[MASK_WORDS];
            mask[cpu >>> 6] = 1L << (cpu & 63);
        }
        if (natives.setAffinityMask(s.tid, mask)) {
            s.pinned = true;
            pins++;
        }
    }

    /** On the owner, under the lock, awake after a park: its own mask back. */
    void unpin(ThreadState t) {
        if (t.pinned) {
            t.pinned = false;
            natives.setAffinityMask(t.tid, t.savedMask);
            unpins++;
        }
    }
}
