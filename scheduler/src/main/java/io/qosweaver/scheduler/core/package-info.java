/**
 * The mechanism (QoSWeaver's ThreadController, 3.1 and 4.2, done properly), internal: public only
 * so that the bridge, the simulator and the tests in other packages can reach it. Two layers:
 * <ul>
 *   <li>{@link io.qosweaver.scheduler.core.StateMachine}: the pure run/wait-queue state machine.
 *       It implements the policies' {@code Control}, keeps each thread's role, queue, flag and
 *       order, and calls the policy; it never locks, parks or reads a clock of its own. The runtime
 *       and the simulator drive the same class.
 *   <li>{@link io.qosweaver.scheduler.core.Controller}: the lock-and-park layer around it: one lock
 *       per installed scheduler, the scope stacks, parking at control points and at entry, reaping
 *       dead threads, the policy's tick, shutdown.
 * </ul>
 * Per-thread records live in {@link io.qosweaver.scheduler.core.ThreadStates} (a thread local for
 * platform threads, a pool for virtual threads, so that neither allocates per request).
 */
package io.qosweaver.scheduler.core;
