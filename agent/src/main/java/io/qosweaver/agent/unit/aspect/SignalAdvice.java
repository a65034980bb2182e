package io.qosweaver.agent.unit.aspect;

import io.qosweaver.agent.bootstrap.Aspects;
import net.bytebuddy.asm.Advice;

/** The two halves of a semaphore aspect: wait before one execution, signal after another returns. */
public final class SignalAdvice {
    private SignalAdvice() {}

    /** Before a {@code wait} execution: blocks until a permit (or the aspect's longest wait). */
    public static final class Wait {
        private Wait() {}

        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@AspectAdvice.Index int index) {
            Aspects.await(index);
        }
    }

    /** After a {@code signal} execution returned normally: one permit more. */
    public static final class Signal {
        private Signal() {}

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@AspectAdvice.Index int index) {
            Aspects.signal(index);
        }
    }
}
