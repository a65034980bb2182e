package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.mixed.MixedResult.VersionResult;
import io.qosweaver.bench.stats.Format;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Issue 13's goals for every QoSWeaver version, from the results alone: light p99 within 2x of the idle
 * light p99 (the unscheduled version's idle window), heavy throughput at least 95 % of unscheduled, zero
 * errors in the loaded window, and ahead of every peer on light p99 at equal or better heavy throughput.
 */
public final class MixedGoals {
    static final double LIGHT_P99_TO_IDLE = 2.0;
    static final double HEAVY_THROUGHPUT = 0.95;

    private MixedGoals() {
    }

    static boolean isQoSWeaver(String name) {
        return name.startsWith("qosweaver");
    }

    static boolean isPeer(VersionResult v) {
        return v.peer() != null;
    }

    public static List<Goal> evaluate(Map<String, VersionResult> versions) {
        List<Goal> goals = new ArrayList<>();
        for (VersionResult q : versions.values()) {
            if (!isQoSWeaver(q.name())) {
                continue;
            }
            boolean ran = q.heavy() != null && q.light() != null;
            Double p99 = q.lightP99ToIdle();
            goals.add(new Goal(q.name(), "light p99 / idle light p99", p99, "<= " + LIGHT_P99_TO_IDLE,
                    p99 == null ? null : p99 <= LIGHT_P99_TO_IDLE));
            Double th = q.heavyThroughputToUnscheduled();
            goals.add(new Goal(q.name(), "heavy throughput / unscheduled", th, ">= " + HEAVY_THROUGHPUT,
                    th == null ? null : th >= HEAVY_THROUGHPUT));
            Double errs = ran ? (double) (q.heavy().errors() + q.light().errors()) : null;
            goals.add(new Goal(q.name(), "errors in the loaded window", errs, "0", errs == null ? null : errs == 0));
            for (VersionResult peer : versions.values()) {
                if (!isPeer(peer)) {
                    continue;
                }
                Boolean met = null;
                Double value = null;
                if (ran && peer.light() != null && q.light().p99Ms() != null && peer.light().p99Ms() != null) {
                    value = q.light().p99Ms();
                    met = q.light().p99Ms() < peer.light().p99Ms()
                            && q.heavy().throughputPerS() >= peer.heavy().throughputPerS();
                }
                goals.add(new Goal(q.name(), "light p99 (ms) ahead of " + peer.name() + " at equal or better heavy "
                        + "throughput", value, peer.light() == null || peer.light().p99Ms() == null ? "peer not measured"
                        : "< " + Format.cell(peer.light().p99Ms()) + " ms with heavy >= "
                        + Format.cell(peer.heavy().throughputPerS()) + "/s", met));
            }
        }
        return goals;
    }

    /** The sentences that open the report. */
    public static List<String> summary(Map<String, VersionResult> versions, List<Goal> goals, Double idleP99) {
        List<String> out = new ArrayList<>();
        out.add("Idle light p99 (unscheduled, light stream alone" + (versions.containsKey(MixedVersions.UNSCHEDULED_END)
                ? ", mean of the first and the last run" : "") + "): " + (idleP99 == null ? "not measured"
                : Format.cell(idleP99) + " ms") + "; ratios below are against the unscheduled "
                + (versions.containsKey(MixedVersions.UNSCHEDULED_END) ? "mean" : "run") + ".");
        for (VersionResult v : versions.values()) {
            if (v.error() != null) {
                out.add(v.name() + ": FAILED: " + v.error());
                continue;
            }
            ClassResult h = v.heavy();
            ClassResult l = v.light();
            out.add(String.format("%s: heavy %s/s (%s of unscheduled, %d errors), light p50/p99/max %s/%s/%s ms "
                    + "(p99 %sx idle, %d errors%s), server CPU %s cores, other processes %s cores", v.name(), Format.cell(h.throughputPerS()),
                    v.heavyThroughputToUnscheduled() == null ? "-" : Format.cell(v.heavyThroughputToUnscheduled()),
                    h.errors(), Format.cell(l.p50Ms()), Format.cell(l.p99Ms()), Format.cell(l.maxMs()),
                    v.lightP99ToIdle() == null ? "-" : Format.cell(v.lightP99ToIdle()), l.errors(),
                    h.errorKinds().isEmpty() && l.errorKinds().isEmpty() ? ""
                            : "; error kinds heavy " + h.errorKinds() + ", light " + l.errorKinds(),
                    v.serverCpuCores() == null ? "-" : Format.cell(v.serverCpuCores()),
                    v.otherCpuCores() == null ? "-" : Format.cell(v.otherCpuCores())));
            Map<String, Object> gc = v.lightTailGc();
            if (gc != null) {
                out.add(String.format("%s: of its %s light requests at or above the p99, %s overlapped a GC pause (on average"
                        + " %s ms of pause in each); the window had %s pauses, %s %% of its time", v.name(),
                        gc.get("tail_requests"), gc.get("tail_with_gc_pause"), gc.get("tail_mean_gc_pause_ms"),
                        gc.get("window_gc_pauses"), gc.get("window_gc_pause_share") == null ? "-"
                                : Format.cell(((Number) gc.get("window_gc_pause_share")).doubleValue() * 100)));
            }
            if (v.priority() != null && !Boolean.TRUE.equals(v.priority().get("effective"))) {
                out.add(v.name() + ": its OS priorities were NOT applied (" + v.priority().get("reason")
                        + "): it measured the app without them");
            }
        }
        for (Goal g : goals) {
            if (Boolean.FALSE.equals(g.met())) {
                out.add("goal NOT met: " + g.version() + ": " + g.goal() + " = "
                        + (g.value() == null ? "-" : Format.cell(g.value())) + " (target " + g.target() + ")");
            }
        }
        long met = goals.stream().filter(g -> Boolean.TRUE.equals(g.met())).count();
        out.add(met + " of " + goals.size() + " goal checks met.");
        return out;
    }
}
