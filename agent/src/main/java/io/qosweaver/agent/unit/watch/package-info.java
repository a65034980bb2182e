/**
 * The tracing aspect of {@code qosweaver watch}: advice around every method an execution pointcut
 * selects, reporting each call to {@link io.qosweaver.agent.bootstrap.WatchProbe}; woven into a
 * running JVM for the length of a watch and unwoven after.
 */
package io.qosweaver.agent.unit.watch;
