/**
 * The runtime workflow: {@code qosweaver attach PID --policy FILE} loads the agent into a running
 * JVM, {@code qosweaver ctl PID ...} talks to a JVM running the agent over its local control
 * socket ({@link io.qosweaver.platform.ControlSockets}, {@link io.qosweaver.platform.ControlClient}).
 */
package io.qosweaver.cli.ctl;
