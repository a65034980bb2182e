/**
 * Helpers woven code calls, appended to the bootstrap class path (in the bootstrap jar) so that
 * classes of every loader reach one copy: the servlet-path classifier and the profiling probe.
 * They depend on nothing but the JDK and {@code io.qosweaver.scheduler.QoS}.
 */
package io.qosweaver.agent.bootstrap;
