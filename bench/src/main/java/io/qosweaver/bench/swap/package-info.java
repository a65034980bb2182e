/**
 * Experiment {@code swap} (issue 15, paper 002): the river monitor under the flash crowd while its
 * policy is changed at run time through the agent's local control ({@code swap}, {@code unweave},
 * {@code set}) every few seconds; every request counted (none lost, none failed, none left
 * parked), the latency of each change, and the deadline results of each phase under the policy
 * then in force.
 */
package io.qosweaver.bench.swap;
