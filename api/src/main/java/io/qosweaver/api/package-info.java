/**
 * CPU shares for applications that ask for them: {@link io.qosweaver.api.Share} (the Q-JVM
 * paper's QThread: a service fraction for the code run in its scopes, no subclassing of
 * {@code Thread}) and {@link io.qosweaver.api.ShareGroup} (its QThreadGroup: admission control of
 * the members' fractions), reached from {@link io.qosweaver.api.Shares}; and user events for
 * the agent's tracer, {@link io.qosweaver.api.Trace}.
 *
 * <p>No dependencies, Java 17. Without the QoSWeaver agent every scheduling call is a cheap no-op
 * (a volatile read); with the agent running an {@code mtr-ls} policy the scheduler gives each
 * share its fraction by Move-To-Rear List Scheduling. The scheduler is found at run time on the
 * bootstrap class path ({@code io.qosweaver.api.internal}), so nothing of the agent is needed to
 * compile, and the agent may start before or after the application first uses the API.
 */
package io.qosweaver.api;
