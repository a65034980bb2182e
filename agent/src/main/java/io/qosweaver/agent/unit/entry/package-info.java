/**
 * The entry unit: advice around the methods a task class's {@code entry} pointcut selects, so that
 * the thread enters the task class's scope when the method starts and leaves it when it returns or
 * throws. Advice is stateless and calls {@code QoS} only.
 */
package io.qosweaver.agent.unit.entry;
