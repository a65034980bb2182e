/**
 * The merge stage: {@link io.qosweaver.trace.timeline.Timeline} takes what every level's source
 * reports, holds it until a watermark, and writes it in timestamp order, describing each track
 * (process, thread, one child track per {@link io.qosweaver.trace.timeline.Level}, counters) on
 * first use. Depends on {@code io.qosweaver.trace.proto}.
 */
package io.qosweaver.trace.timeline;
