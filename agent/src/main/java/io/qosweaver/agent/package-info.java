/**
 * The QoSWeaver agent: {@link io.qosweaver.agent.QoSWeaverAgent} is the {@code Premain-Class} and
 * {@code Agent-Class}; it keeps the {@code Instrumentation} and hands off to {@code startup}. The
 * sub-packages: {@code startup} (arguments, the bootstrap jar), {@code runtime} (the running
 * agent and its door to the scheduler), {@code policy} and {@code pointcut} (the policy file and its
 * pointcut language), {@code weaving} (installing instrumentation units), {@code unit.*} (one per
 * integration), {@code bootstrap} (helpers woven code calls, on the bootstrap class path),
 * {@code control} (the loopback HTTP control plane), {@code profiling} (the profiling mode),
 * {@code natives} (native thread priorities), {@code log}.
 */
package io.qosweaver.agent;
