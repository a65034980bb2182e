/** The closed-loop HTTP load driver: clients per class, latency histograms, per-second series. */
package io.qosweaver.bench.load;
