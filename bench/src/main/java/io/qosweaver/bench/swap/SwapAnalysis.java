package io.qosweaver.bench.swap;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Samples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/** From what a run recorded to what results.json says: phases, their pooling by policy, latencies, goals. */
final class SwapAnalysis {
    /** The issue's bound on the swap latency's p99. */
    static final double LATENCY_GOAL_MS = 1000;

    private SwapAnalysis() {
    }

    /** A phase as recorded: its bounds (epoch ms), the policy in force, its chart completions. */
    record PhaseInput(int index, String policy, long startMs, long endMs, CountingLoad.PhaseLoad load) {
    }

    /**
     * The phases' figures. A collection belongs to the phase it starts in; {@code nowMs} decides
     * whether one still running has already missed its deadline.
     */
    static List<SwapResult.PhaseResult> phases(List<PhaseInput> in, long windowStartMs, List<CollectionRecord> all,
                                               long periodMs, long nowMs) {
        List<SwapResult.PhaseResult> out = new ArrayList<>();
        for (PhaseInput p : in) {
            List<ScenarioResult.Collection> cs = new ArrayList<>();
            for (CollectionRecord r : all) {
                if (r.startMs() < p.startMs() || r.startMs() >= p.endMs()) {
                    continue;
                }
                boolean unfinished = !r.finished();
                boolean missed = unfinished ? nowMs - r.startMs() > periodMs : r.missed(periodMs);
                cs.add(new ScenarioResult.Collection(round((r.startMs() - windowStartMs) / 1000.0), r.startMs(),
                        unfinished ? null : r.durationMs(), r.readings(), missed, unfinished, r.lateMs()));
            }
            double seconds = (p.endMs() - p.startMs()) / 1000.0;
            out.add(new SwapResult.PhaseResult(p.index(), p.policy(), round((p.startMs() - windowStartMs) / 1000.0),
                    round((p.endMs() - windowStartMs) / 1000.0),
                    metrics(cs, p.load().completed(), p.load().failed(), p.load().latencyMicros(), seconds), cs));
        }
        return out;
    }

    /** The phases pooled by policy, in the order the policies first ran. */
    static Map<String, SwapResult.PolicyResult> byPolicy(List<PhaseInput> in, List<SwapResult.PhaseResult> phases) {
        Map<String, List<Integer>> idx = new LinkedHashMap<>();
        for (int i = 0; i < phases.size(); i++) {
            idx.computeIfAbsent(phases.get(i).policy(), k -> new ArrayList<>()).add(i);
        }
        Map<String, SwapResult.PolicyResult> out = new LinkedHashMap<>();
        idx.forEach((policy, is) -> {
            List<ScenarioResult.Collection> cs = new ArrayList<>();
            long completed = 0;
            long failed = 0;
            double seconds = 0;
            Histogram h = null;
            for (int i : is) {
                SwapResult.PhaseResult p = phases.get(i);
                cs.addAll(p.collections());
                completed += p.metrics().chartCompleted();
                failed += p.metrics().chartFailed();
                seconds += p.endS() - p.startS();
                Histogram ph = in.get(i).load().latencyMicros();
                if (h == null) {
                    h = ph.copy();
                } else {
                    h.add(ph);
                }
            }
            out.put(policy, new SwapResult.PolicyResult(is.size(), round(seconds),
                    metrics(cs, completed, failed, h, seconds)));
        });
        return out;
    }

    static SwapResult.Metrics metrics(List<ScenarioResult.Collection> cs, long completed, long failed,
                                      Histogram latencyMicros, double seconds) {
        int count = cs.size();
        int missed = (int) cs.stream().filter(ScenarioResult.Collection::missed).count();
        Samples d = Samples.of(cs.stream().map(ScenarioResult.Collection::durationMs).filter(Objects::nonNull).toList());
        Double mean = d.mean(), max = d.max(), sd = d.stddev();
        boolean any = latencyMicros != null && latencyMicros.getTotalCount() > 0;
        return new SwapResult.Metrics(count, missed, count == 0 ? null : round((double) missed / count, 4),
                round(mean), round(max), round(sd), completed, failed, seconds > 0 ? round(completed / seconds) : 0,
                any ? latencyMicros.getValueAtPercentile(50) / 1000.0 : null,
                any ? latencyMicros.getValueAtPercentile(99) / 1000.0 : null);
    }

    /** Nearest-rank percentiles: with few changes, the p99 is the largest, never an interpolation below it. */
    static SwapResult.LatencyStats latency(List<Double> ms) {
        if (ms.isEmpty()) {
            return new SwapResult.LatencyStats(0, null, null, null, null, null);
        }
        Samples s = Samples.of(ms);
        return new SwapResult.LatencyStats(s.count(), round(s.mean()), s.quantile(0.5), s.quantile(0.9),
                s.quantile(0.99), s.max());
    }

    static Map<String, SwapResult.LatencyStats> latencyByKind(List<SwapResult.StepResult> steps) {
        Map<String, List<Double>> by = new LinkedHashMap<>();
        steps.forEach(s -> by.computeIfAbsent(s.kind(), k -> new ArrayList<>()).add(s.roundTripMs()));
        Map<String, SwapResult.LatencyStats> out = new LinkedHashMap<>();
        by.forEach((k, v) -> out.put(k, latency(v)));
        return out;
    }

    /** The issue's goals, each met, NOT met, or not measured (null), with the measurement. */
    static List<SwapResult.Goal> goals(List<SwapResult.StepResult> steps, SwapResult.Accounting a,
                                       SwapResult.LatencyStats latency) {
        List<SwapResult.Goal> out = new ArrayList<>();
        List<String> bad = steps.stream().filter(s -> !s.verified()).map(s -> "#" + s.index() + " " + s.command()
                + (s.ok() ? ": " + s.inForce() + " in force, expected " + s.expected() : ": " + s.message())).toList();
        out.add(new SwapResult.Goal("every change succeeded and put the expected policy in force",
                steps.isEmpty() ? null : bad.isEmpty(),
                bad.isEmpty() ? steps.size() + " of " + steps.size() + " changes" : String.join("; ", bad)));
        out.add(new SwapResult.Goal("none lost: every request sent was answered",
                a == null ? null : a.lost() == 0 && a.drained(), a == null ? "not measured"
                : String.format(Locale.ROOT, "sent %d = completed %d + failed %d%s%s", a.sent(), a.completed(),
                        a.failed(), a.lost() == 0 ? "" : ", LOST " + a.lost(),
                        a.drained() ? "" : " (a client was still waiting for an answer at the time-out)")));
        out.add(new SwapResult.Goal("none failed: no HTTP error and no exception", a == null ? null : a.failed() == 0,
                a == null ? "not measured" : a.failed() == 0 ? "0 failed of " + a.sent()
                        : a.failed() + " failed: " + a.failureKinds()));
        out.add(new SwapResult.Goal("none left parked once the load had stopped", a == null ? null : parked(a) == 0,
                a == null ? "not measured" : String.format(Locale.ROOT,
                        "scheduler's parked threads %s, application threads parked in QoSWeaver code (thread dump) %s,"
                                + " %.1f s after the load stopped (policy then: %s)",
                        a.suspendedThreads() == null ? "n/a (no scheduler installed)" : a.suspendedThreads(),
                        a.parkedInThreadDump() == null ? "n/a (no dump)" : a.parkedInThreadDump(), a.waitedS(),
                        a.policyAtEnd())));
        out.add(new SwapResult.Goal("the app still runs", a == null ? null : a.appAlive(),
                a == null ? "not measured" : a.appAlive() ? "alive" : "the app had exited"));
        out.add(new SwapResult.Goal(String.format(Locale.ROOT, "change latency p99 under %.0f ms", LATENCY_GOAL_MS),
                latency.p99Ms() == null ? null : latency.p99Ms() < LATENCY_GOAL_MS,
                latency.p99Ms() == null ? "no change measured" : String.format(Locale.ROOT,
                        "p99 %s ms over %d changes (p50 %s, max %s)", Format.cell(latency.p99Ms()), latency.count(),
                        Format.cell(latency.p50Ms()), Format.cell(latency.maxMs()))));
        return out;
    }

    /** Parked threads by either count; an unknown count is not a parked thread. */
    static int parked(SwapResult.Accounting a) {
        return Math.max(a.suspendedThreads() == null ? 0 : a.suspendedThreads(),
                a.parkedInThreadDump() == null ? 0 : a.parkedInThreadDump());
    }

    static List<String> summary(List<SwapResult.Goal> goals, Map<String, SwapResult.PolicyResult> byPolicy) {
        List<String> out = new ArrayList<>();
        for (SwapResult.Goal g : goals) {
            out.add("Goal: " + g.goal() + ": " + (g.met() == null ? "not measured" : g.met() ? "met" : "NOT met")
                    + " (" + g.detail() + ").");
        }
        List<String> per = new ArrayList<>();
        byPolicy.forEach((p, r) -> per.add(p + " " + r.metrics().missedCount() + "/" + r.metrics().collectionCount()
                + " missed, " + Format.cell(r.metrics().chartThroughputPerS()) + " charts/s"));
        if (!per.isEmpty()) {
            out.add("Per policy (phases pooled): " + String.join("; ", per) + ".");
        }
        return out;
    }
}
