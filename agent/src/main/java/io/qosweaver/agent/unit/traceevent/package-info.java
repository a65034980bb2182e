/**
 * The policy file's {@code trace.events}: a unit per pointcut whose advice reports a user-event
 * slice, named by the method, to the tracer's {@code UserTrace}. Woven with the policy when a
 * trace with the {@code user} level runs.
 */
package io.qosweaver.agent.unit.traceevent;
