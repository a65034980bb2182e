/**
 * Experiment (paper QoSWeaver 5.4, Fig. 23): the river monitor with a synchronized logger whose
 * hidden lock deadlocks the importance policy, and every other version with the same logger.
 */
package io.qosweaver.bench.deadlock;
