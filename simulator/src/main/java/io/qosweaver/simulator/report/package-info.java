/** Renderings of simulation results; they depend on {@code io.qosweaver.simulator.stats} only. */
package io.qosweaver.simulator.report;
