package io.qosweaver.bench.pointcuts;

import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileReader;
import io.qosweaver.pointcuts.SlotProfile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How well a profile's time stands for real time: each file's longest timeline (the chart's
 * thread) from its first to its last join point, in the profile's time, against the same chart
 * timed on the application without the agent. With the probe's cost taken out by the agent, the
 * stretch (median span over median unprofiled chart) should be near 1; issue 13 asks for within
 * 1.5x. The unprofiled chart also pays for HTTP and PNG transfer outside the profiled code, so a
 * stretch somewhat under 1 is expected.
 *
 * @param spanMs          per file, its longest timeline's span in ms
 * @param stretch         median span over median unprofiled chart time; null without both
 * @param probeCostNanos  per file, the probe cost the agent took out (null for a file without one)
 */
record TimeBase(List<Double> spanMs, Double stretch, List<Long> probeCostNanos) {

    static TimeBase of(List<Path> files, List<Double> unprofiledMs) throws IOException {
        List<Double> spans = new ArrayList<>();
        List<Long> costs = new ArrayList<>();
        for (Path f : files) {
            long slot = 1_000_000;
            Long cost = null;
            if (BinaryProfileReader.version(f) > 0) {
                BinaryProfileReader.Summary s = BinaryProfileReader.summary(f);
                slot = s.slotNanos() > 0 ? s.slotNanos() : slot;
                String c = s.meta().get(BinaryProfileFormat.PROBE_COST_NANOS);
                cost = c == null ? null : Long.valueOf(c);
            }
            SlotProfile p = SlotProfile.read(List.of(f), slot);
            long longest = 0;
            for (int tl = 0; tl < p.timelines(); tl++) {
                longest = Math.max(longest, p.timelineEnd(tl) - p.timelineStart(tl));
            }
            spans.add(Math.round(longest / 1e4) / 100.0);
            costs.add(cost);
        }
        Double stretch = spans.isEmpty() || unprofiledMs.isEmpty() ? null
                : Math.round(ChartProfiler.median(spans) / ChartProfiler.median(unprofiledMs) * 1000) / 1000.0;
        return new TimeBase(List.copyOf(spans), stretch, java.util.Collections.unmodifiableList(costs));
    }
}
