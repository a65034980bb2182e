/**
 * Helpers woven code calls, appended to the bootstrap class path (in the bootstrap jar) so that
 * classes of every loader reach one copy: the table of task classes that select requests (with
 * the servlet and server integrations' entries), the policy file's aspects ({@code Aspects}:
 * bulkheads, synchronization, semaphores, time-outs with their one timer thread; {@code
 * ServerPools}: the servers' own thread pools, reached by reflection) and the profiling probe.
 * They depend on nothing but the JDK and {@code io.qosweaver.scheduler.QoS}.
 */
package io.qosweaver.agent.bootstrap;
