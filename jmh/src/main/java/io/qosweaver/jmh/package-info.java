/**
 * JMH micro-benchmarks of the scheduler's hot paths (the control point, enter and exit, the
 * progress point); figures and their JSON in jmh/RESULTS.md and jmh/results/.
 */
package io.qosweaver.jmh;
