/**
 * Helpers woven code calls, appended to the bootstrap class path (in the bootstrap jar) so that
 * classes of every loader reach one copy: the table of task classes that select requests (with
 * the servlet integration's entry) and the profiling probe. They depend on nothing but the JDK
 * and {@code io.qosweaver.scheduler.QoS}.
 */
package io.qosweaver.agent.bootstrap;
