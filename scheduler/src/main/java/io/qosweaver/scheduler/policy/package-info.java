/**
 * The built-in policies, one file each, written against the SPI only
 * ({@code io.qosweaver.scheduler.spi}, plus {@code io.qosweaver.platform} for OS facts):
 * QoSWeaver's importance policy (4.2), the paper's baselines of 5.1 (admission control, Java
 * priorities, Linux priorities), its policies of 4.4 (deadlock-aware, adaptive) and Q-JVM's
 * Move-To-Rear List Scheduling (mtr-ls), registered by name in {@link io.qosweaver.scheduler.policy.BuiltInPolicies}.
 */
package io.qosweaver.scheduler.policy;
