/** What a simulation takes and gives: the workload's parameters and one result row per version. */
package io.qosweaver.simulator.stats;
