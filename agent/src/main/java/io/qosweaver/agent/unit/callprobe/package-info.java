/**
 * The profiling probe unit: {@code CallProbe.record(callerId, calleeId)} before every call of the
 * profiled packages, with both signatures interned at weave time, and the rules of which packages
 * may be profiled ({@link io.qosweaver.agent.unit.callprobe.ProfiledPackages}).
 */
package io.qosweaver.agent.unit.callprobe;
