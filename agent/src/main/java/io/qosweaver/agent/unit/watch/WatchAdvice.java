package io.qosweaver.agent.unit.watch;

import io.qosweaver.agent.bootstrap.WatchProbe;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined around a watched method: the start time on entry, the call's line on return or throw.
 * Every method suppresses Throwable so that nothing from the watch reaches the application.
 */
public final class WatchAdvice {
    private WatchAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static long enter() {
        return WatchProbe.enter();
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter long start, @Advice.Origin("#t.#m") String method,
            @Advice.AllArguments Object[] args, @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object result,
            @Advice.Thrown Throwable thrown, @Advice.Origin("#r") String returnType) {
        WatchProbe.exit(start, method, args, result, thrown, returnType.equals("void"));
    }
}
