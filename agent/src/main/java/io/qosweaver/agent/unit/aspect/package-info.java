/**
 * The policy file's {@code aspects:} beyond scheduling (the dynamic-weaving paper's policies):
 * bulkheads and synchronization, advice around the executions their pointcuts select, swapped and
 * unwoven with the rest of the policy.
 */
package io.qosweaver.agent.unit.aspect;
