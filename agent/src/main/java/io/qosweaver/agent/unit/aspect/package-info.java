/**
 * The policy file's {@code aspects:} beyond scheduling (the dynamic-weaving paper's policies):
 * bulkheads, synchronization, semaphores and time-outs ({@code interrupt} or {@code fail}), advice
 * around the executions their pointcuts select, swapped and unwoven with the rest of the policy.
 * The servers' thread pools are the {@code serverpool} unit's.
 */
package io.qosweaver.agent.unit.aspect;
