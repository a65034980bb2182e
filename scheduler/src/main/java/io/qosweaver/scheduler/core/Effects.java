package io.qosweaver.scheduler.core;

/**
 * What the state machine asks of the world around it. The runtime keeps the process-wide pending
 * word and unparks threads; the simulator marks its virtual threads runnable.
 */
public interface Effects {

    /**
     * The number of flagged threads that control points must notice changed by {@code delta}
     * (threads waiting at entry are not counted: they never reach a control point while flagged).
     */
    void pendingChanged(int delta);

    /** {@code t}'s wait was ended by someone else (released, promoted, shut down): wake it. */
    void wake(ThreadState t);

    /**
     * {@code t}'s wait is ended by {@code demoted}, which is about to park on the CPU it runs on
     * (the hand-off, {@link StateMachine#handOff}): wake {@code t} to run there. By default as
     * {@link #wake}; the runtime may place {@code t} on that CPU.
     */
    default void wakeInPlaceOf(ThreadState t, ThreadState demoted) {
        wake(t);
    }

    /** Effects that do nothing (a machine driven step by step). */
    Effects NONE = new Effects() {
        @Override
        public void pendingChanged(int delta) {}

        @Override
        public void wake(ThreadState t) {}
    };
}
