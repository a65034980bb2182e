/**
 * Experiment {@code mixed} (issue 13): a third-party server application from Maven Central, unmodified,
 * under N heavy closed-loop clients and an open-loop stream of light requests, unscheduled, under
 * QoSWeaver and under today's tools. Each load class runs in a driver JVM of its own
 * ({@link io.qosweaver.bench.mixed.MixedDriver}), the heavy one at a worse nice value, so that the light
 * client's own scheduling does not dominate the light tail it measures.
 */
package io.qosweaver.bench.mixed;
