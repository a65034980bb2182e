package io.qosweaver.trace;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;

/** A summary of a trace file, for looking at one by hand: {@code TraceDump FILE}. */
public final class TraceDump {
    private TraceDump() {}

    public static void main(String[] args) throws Exception {
        TraceChecks t = TraceChecks.read(Path.of(args[0]));
        if (args.length > 1) { // the events of the tracks whose label contains args[1], in file order
            for (TracePacket p : t.events) {
                TrackDescriptor d = t.tracks.get(p.getTrackEvent().getTrackUuid());
                String l = d == null ? "?" : label(d);
                if (d != null && !d.hasThread() && t.tracks.containsKey(d.getParentUuid())) {
                    l = label(t.tracks.get(d.getParentUuid())) + " / " + l;
                }
                if (l.contains(args[1])) {
                    System.out.println(p.getTimestamp() + " " + l + " " + p.getTrackEvent().getType() + " "
                            + p.getTrackEvent().getName() + " " + p.getTrackEvent().getDebugAnnotationsList().stream()
                                    .map(a -> a.getName() + "=" + (a.hasStringValue() ? a.getStringValue() : a.getIntValue()))
                                    .collect(java.util.stream.Collectors.joining(",")));
                }
            }
            return;
        }
        Map<String, Integer> perTrack = new TreeMap<>();
        for (TracePacket p : t.events) {
            TrackDescriptor d = t.tracks.get(p.getTrackEvent().getTrackUuid());
            String parent = d == null ? "?" : d.hasParentUuid() && t.tracks.containsKey(d.getParentUuid())
                    ? label(t.tracks.get(d.getParentUuid())) + " / " : "";
            perTrack.merge(parent + (d == null ? "?" : label(d)) + " " + p.getTrackEvent().getName(), 1, Integer::sum);
        }
        perTrack.forEach((k, v) -> System.out.println(v + "\t" + k));
        System.out.println(t.trace.getPacketCount() + " packets; last: " + t.events.get(t.events.size() - 1));
        t.valid();
        System.out.println("valid");
    }

    private static String label(TrackDescriptor d) {
        if (d.hasThread()) {
            return d.getThread().getThreadName() + "[" + d.getThread().getTid() + "]";
        }
        return d.hasProcess() ? "process " + d.getProcess().getPid() : d.getName();
    }
}
