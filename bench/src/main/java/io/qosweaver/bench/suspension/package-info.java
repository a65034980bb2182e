/** Experiment (paper Fig. 16): the time from a collections start until the chart threads are suspended. */
package io.qosweaver.bench.suspension;
