/**
 * Experiment {@code racetest} (issue 16, the Q-JVM paper's 4.2-4.6): N CPU-bound runners (a
 * Dhrystone-like loop) in a JVM of their own, loops per second per runner sampled every second;
 * the runners asking shares through the Java API under the agent's {@code mtr-ls} policy against
 * the unmanaged JVM in the same run (Java priorities, {@code nice} per thread, cgroup v2 weights
 * where the machine allows them). Overhead, fairness, partitioning and jitter, the paper's numbers
 * beside ours.
 */
package io.qosweaver.bench.racetest;
