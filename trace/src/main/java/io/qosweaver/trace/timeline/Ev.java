package io.qosweaver.trace.timeline;

import io.qosweaver.trace.proto.Args;

/** One pending track event, allocated by the tracer's own threads (never an application thread). */
final class Ev {
    final long ts;
    final long seq;
    final int type;
    final long track;
    final String name;
    final String category;
    final Args args;
    final long value;
    final double doubleValue;
    final boolean isDouble;

    Ev(long ts, long seq, int type, long track, String name, String category, Args args, long value, double doubleValue,
            boolean isDouble) {
        this.ts = ts;
        this.seq = seq;
        this.type = type;
        this.track = track;
        this.name = name;
        this.category = category;
        this.args = args;
        this.value = value;
        this.doubleValue = doubleValue;
        this.isDouble = isDouble;
    }
}
