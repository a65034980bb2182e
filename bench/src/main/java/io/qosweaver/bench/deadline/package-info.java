/** Experiment (paper Table 2, Fig. 14-15): deadline misses of every version over chart windows. */
package io.qosweaver.bench.deadline;
