/**
 * The running agent: the policy file read and validated, the scheduler installed through the
 * agent's only door into it ({@code SchedulerGateway}), the policy's instrumentation units woven,
 * the control plane started, pointcuts that match nothing reported.
 */
package io.qosweaver.agent.runtime;
