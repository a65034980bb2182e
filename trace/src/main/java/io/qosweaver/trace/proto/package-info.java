/**
 * The Perfetto trace format, encoded by hand: {@link io.qosweaver.trace.proto.ProtoBuffer} (the
 * protobuf wire format) and {@link io.qosweaver.trace.proto.PerfettoWriter} (trace packets: clock
 * snapshot, track descriptors, track events, the size cap). Depends on the JDK only.
 */
package io.qosweaver.trace.proto;
