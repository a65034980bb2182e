/**
 * Start-up: the order in which the agent comes up (the bootstrap jar onto the bootstrap class path
 * before any scheduler class links, then the profiling mode or the runtime), and the one append of
 * {@code qosweaver-agent-bootstrap.jar}. Classes here link no scheduler class themselves.
 */
package io.qosweaver.agent.startup;
