/** Experiment (paper Fig. 18 and its overhead paragraph): what each version costs the charts. */
package io.qosweaver.bench.lowcost;
