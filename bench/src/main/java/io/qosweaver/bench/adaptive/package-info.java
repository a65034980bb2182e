/**
 * Experiment {@code adaptive} (issue 14; paper 5.5, Fig. 24-27): the adaptive target-throughput
 * policy holding the river monitor's up-to-date page at a target under a chart load, its feasible
 * range on this machine, the error against the target, the settling time after a change of load,
 * and the throughput during collections.
 */
package io.qosweaver.bench.adaptive;
