package io.qosweaver.pointcuts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one generation produced: Table 3's columns (target interval, maximum occurrence, generated
 * pointcuts, selected join points), the candidates, the interval predicted on the profile
 * between adjacent selected join points of a timeline (mean and population standard deviation),
 * the uncovered slots and the generation time. Renders as text, as a map of plain values (for
 * a JSON writer: {@link #toJson()}), and as the {@code controlPoints:} section of a policy file.
 *
 * @param intervalNanos the target interval, in real time
 * @param profileSlowdown how many times slower the profiled run was (1: profile time is real time);
 *     slots are {@code intervalNanos x profileSlowdown} of profile time
 * @param uncoveredSlots slots that no generated pointcut covers, including the empty ones
 * @param emptySlots slots without any join point (nothing could cover them)
 * @param intervalMeanNanos in real time (profile time divided by the slowdown); NaN when fewer
 *     than two join points are selected on every timeline
 * @param longestGapNanos the longest stretch of a timeline without a selected join point, in real
 *     time, counting from the timeline's first join point to the first selected one and from the
 *     last selected one to the timeline's last (a timeline with none selected: its whole length).
 *     What a thread that must yield may run for before it reaches a control point; the mean hides it.
 *     With request spans a timeline is one request, from its start to its end.
 * @param coveragePointcuts how many pointcuts the coverage pass added after Fig. 3's (the last ones
 *     of {@code pointcuts}); -1 when no coverage pass was asked for
 * @param requestSpans the request spans the profile's timelines were cut to ({@link SlotProfile}):
 *     then timelines, slots and intervals are those inside requests only; -1 when the profile
 *     records no spans
 * @param timelinesOutsideRequests timelines left out: no join point inside a request span
 * @param joinPointsOutsideRequests join points left out: outside every request span
 */
public record GenerationReport(
        long intervalNanos,
        double profileSlowdown,
        int maxOccurrence,
        long joinPoints,
        int timelines,
        int slots,
        int candidates,
        int candidatesWithinMaxOccurrence,
        int excludedSynchronized,
        int excludedInitializers,
        List<GeneratedPointcut> pointcuts,
        long selectedJoinPoints,
        long intervals,
        double intervalMeanNanos,
        double intervalStdDevNanos,
        double longestGapNanos,
        int uncoveredSlots,
        int emptySlots,
        long generationNanos,
        List<String> missingClasses,
        int coveragePointcuts,
        int requestSpans,
        int timelinesOutsideRequests,
        long joinPointsOutsideRequests) {

    /** One generated pair: {@code call(callee) && withincode(caller)}. */
    public record GeneratedPointcut(String caller, String callee, long joinPoints, int slotsCovered) {
        public String pointcut() {
            return pointcutText(caller, callee);
        }
    }

    public GenerationReport {
        pointcuts = List.copyOf(pointcuts);
        missingClasses = List.copyOf(missingClasses);
    }

    /** A report of a profile without request spans. */
    public GenerationReport(long intervalNanos, double profileSlowdown, int maxOccurrence, long joinPoints, int timelines,
            int slots, int candidates, int candidatesWithinMaxOccurrence, int excludedSynchronized,
            int excludedInitializers, List<GeneratedPointcut> pointcuts, long selectedJoinPoints, long intervals,
            double intervalMeanNanos, double intervalStdDevNanos, double longestGapNanos, int uncoveredSlots,
            int emptySlots, long generationNanos, List<String> missingClasses, int coveragePointcuts) {
        this(intervalNanos, profileSlowdown, maxOccurrence, joinPoints, timelines, slots, candidates,
                candidatesWithinMaxOccurrence, excludedSynchronized, excludedInitializers, pointcuts, selectedJoinPoints,
                intervals, intervalMeanNanos, intervalStdDevNanos, longestGapNanos, uncoveredSlots, emptySlots,
                generationNanos, missingClasses, coveragePointcuts, -1, 0, 0);
    }

    /** Our agent's pointcut language for one candidate. */
    public static String pointcutText(String caller, String callee) {
        return "call(" + callee + ") && withincode(" + caller + ")";
    }

    /** The control-point section of a policy file, with a comment saying where it came from. */
    public String controlPointsYaml() {
        return sectionYaml("controlPoints");
    }

    /**
     * The pointcuts as a section of a policy file: {@code controlPoints}, or {@code progressPoints}
     * (the deadlock-aware policy's progress counters, placed as regularly as control points: the
     * paper's Fig. 12 pointcut was generated so), with a comment saying where it came from.
     */
    public String sectionYaml(String section) {
        StringBuilder b = new StringBuilder();
        b.append("# Generated by the QoSWeaver pointcut generator: target interval ").append(ms(intervalNanos))
                .append(" ms, maximum occurrence ").append(maxOccurrence)
                .append(coveragePointcuts < 0 ? "" : ", every slot covered (" + coveragePointcuts + " pointcuts beyond m)")
                .append(profileSlowdown == 1.0 ? "" : ", profile " + slowdown() + "x slower than real time").append(".\n");
        b.append("# ").append(pointcuts.size()).append(" pointcuts select ").append(selectedJoinPoints)
                .append(" of ").append(joinPoints).append(" profiled join points; predicted interval ")
                .append(ms(intervalMeanNanos)).append(" ms (sd ").append(ms(intervalStdDevNanos))
                .append(" ms, longest gap ").append(ms(longestGapNanos)).append(" ms); ")
                .append(uncoveredSlots).append(" of ").append(slots).append(" slots uncovered.\n");
        if (requestSpans >= 0) {
            b.append("# ").append(outsideRequests()).append(".\n");
        }
        if (pointcuts.isEmpty()) {
            return b.append(section).append(": []\n").toString();
        }
        b.append(section).append(":\n");
        for (GeneratedPointcut p : pointcuts) {
            b.append("  - \"").append(p.pointcut().replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
        }
        return b.toString();
    }

    public String toText() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "target interval      %s ms%s%n", ms(intervalNanos), profileSlowdown == 1.0 ? ""
                : " (slots of " + ms(intervalNanos * profileSlowdown) + " ms of profile time: the profile ran " + slowdown()
                        + "x slower; intervals below are in real time)"));
        b.append(String.format(Locale.ROOT, "maximum occurrence   %d%n", maxOccurrence));
        b.append(String.format(Locale.ROOT, "join points          %d on %d timeline(s), %d slots (%d empty)%n",
                joinPoints, timelines, slots, emptySlots));
        if (requestSpans >= 0) {
            b.append(String.format(Locale.ROOT, "requests             %s%n", outsideRequests()));
        }
        b.append(String.format(Locale.ROOT, "candidates           %d (%d select at most %d join points; excluded: %d in synchronized code, %d constructors or initializers)%n",
                candidates, candidatesWithinMaxOccurrence, maxOccurrence, excludedSynchronized, excludedInitializers));
        b.append(String.format(Locale.ROOT, "generated pointcuts  %d%n", pointcuts.size()));
        b.append(String.format(Locale.ROOT, "selected join points %d%n", selectedJoinPoints));
        b.append(String.format(Locale.ROOT, "predicted interval   mean %s ms, sd %s ms (%d intervals)%n",
                ms(intervalMeanNanos), ms(intervalStdDevNanos), intervals));
        b.append(String.format(Locale.ROOT, "longest gap          %s ms without a control point%n", ms(longestGapNanos)));
        b.append(String.format(Locale.ROOT, "uncovered slots      %d of %d (%d of them empty)%n", uncoveredSlots, slots, emptySlots));
        if (coveragePointcuts >= 0) {
            b.append(String.format(Locale.ROOT, "coverage pass        %d pointcuts added to cover every slot with a join point%s%n",
                    coveragePointcuts, coveragePointcuts == 0 ? "" : " (m raised to " + coverageMaxOccurrence()
                            + " for them)"));
        }
        b.append(String.format(Locale.ROOT, "generation time      %s ms%n", ms(generationNanos)));
        if (!missingClasses.isEmpty()) {
            b.append("not checked for synchronized code (class not found): ").append(String.join(", ", missingClasses))
                    .append(System.lineSeparator());
        }
        for (GeneratedPointcut p : pointcuts) {
            b.append(String.format(Locale.ROOT, "  %4d jp %4d slots  %s%n", p.joinPoints(), p.slotsCovered(), p.pointcut()));
        }
        return b.toString();
    }

    /** Plain values only (String, Number, Boolean, null, List, Map), in a stable order. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("target_interval_ms", intervalNanos / 1e6);
        m.put("profile_slowdown", profileSlowdown);
        m.put("max_occurrence", maxOccurrence);
        m.put("join_points", joinPoints);
        m.put("timelines", timelines);
        m.put("slots", slots);
        m.put("empty_slots", emptySlots);
        m.put("candidates", candidates);
        m.put("candidates_within_max_occurrence", candidatesWithinMaxOccurrence);
        m.put("excluded_synchronized", excludedSynchronized);
        m.put("excluded_initializers", excludedInitializers);
        m.put("generated_pointcuts", pointcuts.size());
        m.put("selected_join_points", selectedJoinPoints);
        m.put("predicted_interval_mean_ms", Double.isNaN(intervalMeanNanos) ? null : intervalMeanNanos / 1e6);
        m.put("predicted_interval_sd_ms", Double.isNaN(intervalStdDevNanos) ? null : intervalStdDevNanos / 1e6);
        m.put("predicted_longest_gap_ms", longestGapNanos / 1e6);
        m.put("uncovered_slots", uncoveredSlots);
        m.put("generation_time_ms", generationNanos / 1e6);
        m.put("missing_classes", missingClasses);
        m.put("coverage_pointcuts", coveragePointcuts < 0 ? null : coveragePointcuts);
        m.put("coverage_max_occurrence", coveragePointcuts <= 0 ? null : coverageMaxOccurrence());
        if (requestSpans >= 0) {
            m.put("request_spans", requestSpans);
            m.put("timelines_outside_requests", timelinesOutsideRequests);
            m.put("join_points_outside_requests", joinPointsOutsideRequests);
        }
        List<Object> list = new ArrayList<>();
        for (GeneratedPointcut p : pointcuts) {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("pointcut", p.pointcut());
            e.put("caller", p.caller());
            e.put("callee", p.callee());
            e.put("join_points", p.joinPoints());
            e.put("slots_covered", p.slotsCovered());
            list.add(e);
        }
        m.put("pointcuts", list);
        return m;
    }

    public String toJson() {
        return Json.write(toMap());
    }

    /** The most join points one pointcut of the coverage pass selects. */
    public long coverageMaxOccurrence() {
        long max = 0;
        for (int i = pointcuts.size() - Math.max(0, coveragePointcuts); i < pointcuts.size(); i++) {
            max = Math.max(max, pointcuts.get(i).joinPoints());
        }
        return max;
    }

    /** What the request spans kept and left out, for the text and the policy's header. */
    private String outsideRequests() {
        return String.format(Locale.ROOT, "only the %d request span(s) profiled count (timelines, slots and intervals are"
                + " within them); left out as outside any request: %d timeline(s), %d join point(s)", requestSpans,
                timelinesOutsideRequests, joinPointsOutsideRequests);
    }

    private String slowdown() {
        return String.format(Locale.ROOT, "%.2f", profileSlowdown);
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "n/a" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
