package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.InternalErrors;
import io.qosweaver.scheduler.core.Scopes;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.RuntimeShare;

/**
 * What the Java API ({@code qosweaver-api}, in the application's class loader) calls: run-time
 * shares (the paper's QThread and QThreadGroup). CONTRACT (shared with the API, which finds this
 * class on the bootstrap class path by name and binds these methods with {@code MethodHandles};
 * do not change signatures): static, public, and only {@link #newShare} and {@link #setFraction}
 * throw, for bad arguments. Handles are {@code Object} so that the API needs no scheduler class
 * at compile time.
 *
 * <p>A share is a scheduling entity of the installed policy if it takes run-time shares
 * ({@code mtr-ls}); under any other policy, or none, its scopes are inert and pair like any scope.
 */
public final class ShareBridge {
    private ShareBridge() {}

    /** A new share's handle; allocates once per share. @throws IllegalArgumentException on bad input */
    public static Object newShare(String name, double fraction) {
        return new RuntimeShare(name, fraction);
    }

    /** Changes a share's fraction: a volatile write, applied by the policy within one tick. */
    public static void setFraction(Object share, double fraction) {
        ((RuntimeShare) share).setFraction(fraction);
    }

    /**
     * The calling thread enters a scope of the share (nested scopes allowed; the innermost of the
     * highest rank decides, as for task classes). Allocates nothing once the share has been entered
     * under the installed scheduler; takes the scheduler's lock as every managed scope's entry does.
     */
    public static void enter(Object share) {
        try {
            Scheduler s = Scheduler.current;
            ThreadState t = s == null ? ThreadStates.peek() : ThreadStates.current();
            if (t == null) {
                return; // no scheduler and no open scope: nothing to pair
            }
            Scopes.enter(t, s == null ? null : s.controller, (RuntimeShare) share);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** The calling thread leaves its innermost scope (the one its {@link #enter} opened). */
    public static void exit() {
        QoS.exit();
    }

    /**
     * Whether the installed policy schedules run-time shares (false: scopes are inert).
     */
    public static boolean active() {
        Scheduler s = Scheduler.current;
        return s != null && s.controller.machine().policy().shareRank() > 0;
    }

    /**
     * What run-time shares may ask together under the installed policy (besides the policy file's
     * own fractions and its reserved share); NaN when it takes none.
     */
    public static double capacity() {
        Scheduler s = Scheduler.current;
        return s == null ? Double.NaN : s.controller.locked(() -> s.controller.machine().policy().shareCapacity());
    }
}
