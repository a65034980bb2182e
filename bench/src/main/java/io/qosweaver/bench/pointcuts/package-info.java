/**
 * Experiment (paper 5.3, Table 3, Fig. 19-22): control points generated from a profile for the
 * papers parameters, their observed intervals, overhead and effect on suspension and collections;
 * with the chart profiler and the chart load runner it needs.
 */
package io.qosweaver.bench.pointcuts;
