package io.qosweaver.trace.jvm;

import jdk.jfr.Category;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The tracer's calibration event: committed with {@link System#nanoTime()} read just before, so
 * that the stream's reading of its start time (an {@link java.time.Instant}) tells the offset from
 * JFR's time to the trace's clock, measured by JFR's own conversion.
 */
@Name("qosweaver.trace.Clock")
@Label("Tracer Clock Calibration")
@Category({"QoSWeaver", "Tracer"})
@StackTrace(false)
final class ClockEvent extends jdk.jfr.Event {
    @Label("Nano Time")
    long nanoTime;

    @Label("Fence")
    boolean fence;
}
