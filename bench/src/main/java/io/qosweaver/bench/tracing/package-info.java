/**
 * Experiment {@code tracing} (issue 17, thesis 3.2): the cost of {@code qosweaver trace} on the
 * river monitor's chart load, tracer off against each level alone and all levels on, in paired,
 * alternating runs.
 */
package io.qosweaver.bench.tracing;
