package io.qosweaver.agent.unit.aspect;

import io.qosweaver.agent.bootstrap.Aspects;
import net.bytebuddy.asm.Advice;

/** The two kinds of time-out aspect, each inlined around the executions its pointcut selects. */
public final class TimeoutAdvice {
    private TimeoutAdvice() {}

    /** {@code action: interrupt}: the deadline queued at entry, taken back (or its interrupt cleared) at the end. */
    public static final class Interrupt {
        private Interrupt() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static Object enter(@AspectAdvice.Index int index) {
            return Aspects.startTimed(index);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit(@Advice.Enter Object timed) {
            Aspects.endTimed(timed);
        }
    }

    /**
     * {@code action: fail}: the clock at entry, compared at a normal return, which then throws
     * (the exit is not suppressed: its exception is the one meant to reach the caller). A throw
     * of the execution's own passes unchanged.
     */
    public static final class Fail {
        private Fail() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static long enter(@AspectAdvice.Index int index) {
            return Aspects.startFail(index);
        }

        @Advice.OnMethodExit
        static void exit(@AspectAdvice.Index int index, @Advice.Enter long started) {
            Aspects.endFail(index, started);
        }
    }
}
