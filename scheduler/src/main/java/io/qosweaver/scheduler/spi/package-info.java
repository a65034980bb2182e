/**
 * The policy SPI: what a scheduling policy implements ({@link io.qosweaver.scheduler.spi.Policy})
 * and what it may ask of the mechanism ({@link io.qosweaver.scheduler.spi.Control}), the views it
 * gets of threads and task classes, its parameters and platform services
 * ({@link io.qosweaver.scheduler.spi.PolicyContext}), and the registry policies are found in by
 * name. A policy depends on this package (and on {@code io.qosweaver.platform} for OS facts) only;
 * it never sees locks, parking or weaving. {@code scheduler/README.md} shows, for every planned
 * policy, which callbacks and controls it uses.
 */
package io.qosweaver.scheduler.spi;
