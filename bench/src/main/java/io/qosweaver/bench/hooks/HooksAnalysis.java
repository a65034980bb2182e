package io.qosweaver.bench.hooks;

import static io.qosweaver.bench.stats.Round.round;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** From the runs, memory and identity checks to what {@code results.json} says: summaries, ratios, goals. */
final class HooksAnalysis {
    /** The goal: filtered and idle hooks, and the app after unweave, cost under 1 % of the mean response time. */
    static final double GOAL_PCT = 1.0;

    static final String NONE = "none";
    static final String UNWOVEN = "unwoven";
    /** The versions in report order, and what each is. */
    static final Map<String, String> VERSIONS = new LinkedHashMap<>();

    static {
        VERSIONS.put(NONE, "no agent");
        VERSIONS.put("execution", "agent, an idle hook at every execution join point of " + HooksParams.APP_PACKAGES
                + " (entry and each return)");
        VERSIONS.put("all", "agent, an idle hook at every call and execution join point of " + HooksParams.APP_PACKAGES);
        VERSIONS.put("policy", "agent, the filtered hooks of examples/policies/river-monitor.yaml, idle (no collection,"
                + " no chart)");
        VERSIONS.put(UNWOVEN, "the policy's process after qosweaver ctl unweave");
    }

    /** The paper's Fig. 7 (mean response time of MyServer's static page) and its memory numbers. */
    static final List<HooksResult.PaperRow> PAPER = List.of(
            new HooksResult.PaperRow(NONE, 183.0, 1.0, "no instrumentation"),
            new HooksResult.PaperRow("execution", 202.0, round(202.0 / 183, 3), "before hooks at 865 execution join points"),
            new HooksResult.PaperRow("all", 232.0, round(232.0 / 183, 3), "before hooks at 3378 join points (865 execution,"
                    + " 2513 call); 399590 bytes against 300428: 29 bytes per join point"),
            new HooksResult.PaperRow("policy", null, null, "filtered: before and after hooks at 10 (coarse) or about 20"
                    + " (fine) join points; \"almost the same\" as no instrumentation"),
            new HooksResult.PaperRow(UNWOVEN, null, null, "not measured (AspectC++ hooks are static)"));

    private HooksAnalysis() {
    }

    static HooksResult assemble(boolean quick, Map<String, Object> params, Map<String, Object> machine, String command,
                                List<HooksResult.Run> runs, List<HooksResult.Memory> memory,
                                List<HooksResult.Identity> identity, Map<String, String> errors, String now) {
        return assemble(quick, params, machine, command, runs, memory, identity, errors, now, List.of(), null);
    }

    static HooksResult assemble(boolean quick, Map<String, Object> params, Map<String, Object> machine, String command,
                                List<HooksResult.Run> runs, List<HooksResult.Memory> memory,
                                List<HooksResult.Identity> identity, Map<String, String> errors, String now,
                                List<HooksResult.PerRequest> perRequest, HookCost hookCost) {
        List<HooksResult.VersionSummary> versions = new ArrayList<>();
        for (Map.Entry<String, String> v : VERSIONS.entrySet()) {
            versions.add(summary(v.getKey(), v.getValue(), runs));
        }
        Double resolution = resolutionPct(runs);
        List<HooksResult.Goal> goals = new ArrayList<>();
        List<String> summary = new ArrayList<>();
        String res = resolution == null ? "unknown (fewer than two no-agent runs)"
                : String.format(Locale.ROOT, "%.2f %%", resolution);
        for (String v : List.of("policy", UNWOVEN)) {
            HooksResult.VersionSummary s = versions.stream().filter(x -> x.version().equals(v)).findFirst().orElseThrow();
            goals.add(costGoal(v.equals("policy") ? "the filtered hooks of a real policy, idle, cost under " + GOAL_PCT
                    + " % of the mean response time" : "after unweave the app costs under " + GOAL_PCT
                    + " % of the mean response time", s, resolution));
        }
        goals.add(identityGoal(identity));
        List<HooksResult.Cost> cost = new ArrayList<>();
        for (String v : List.of("execution", "all")) {
            HooksResult.Cost c = cost(v, perRequest, hookCost);
            cost.add(c);
            goals.add(computedGoal(c, hookCost));
        }
        for (HooksResult.VersionSummary s : versions) {
            if (s.meanRatioMedian() != null && !s.version().equals(NONE)) {
                summary.add(String.format(Locale.ROOT, "%s: mean response time %s ms, %s of the no-agent runs'"
                                + " (median of %d paired runs, range %s to %s); p99 %s ms", s.version(),
                        fmt(s.meanMsMedian()), ratio(s.meanRatioMedian()), s.runs(), ratio(s.meanRatioMin()),
                        ratio(s.meanRatioMax()), fmt(s.p99MsMedian())));
            }
        }
        summary.add("Resolution: the no-agent runs' mean response times spread over " + res
                + " of their median; a smaller difference between versions is not resolved by these runs.");
        for (String v : List.of("execution", "all", "policy")) {
            memory.stream().filter(m -> m.version().equals(v)).findFirst().ifPresent(m -> summary.add(String.format(
                    Locale.ROOT, "%s: %d join points in %d classes; %s bytes of class file and %s bytes of metaspace per"
                            + " join point (the paper: 29 bytes of code per join point)", v, m.joinPoints(),
                    m.classesWoven(), fmt(m.codeBytesPerJoinPoint()), fmt(m.metaspaceBytesPerJoinPoint()))));
        }
        goals.stream().filter(g -> g.goal().startsWith("after unweave every")).findFirst()
                .ifPresent(g -> summary.add("Byte identity after unweave: " + g.detail() + "."));
        goals.stream().filter(g -> g.goal().startsWith("computed:"))
                .forEach(g -> summary.add(g.goal().substring("computed: ".length()) + ": " + verdict(g) + ", "
                        + g.detail() + "."));
        return new HooksResult("hooks", now, command, quick, params, machine, runs, versions, memory, identity, resolution,
                PAPER, goals, summary, errors, List.copyOf(perRequest), hookCost, cost);
    }

    /** A goal without a verdict was either not measured or measured without resolving it: say which. */
    static String verdict(HooksResult.Goal g) {
        if (g.met() != null) {
            return g.met() ? "met" : "NOT MET";
        }
        return g.detail().startsWith("not measured") ? "NOT MEASURED" : "NOT RESOLVED";
    }

    /** Hooks per request (medians over the version's processes) x ns per hook over the no-agent CPU per request. */
    static HooksResult.Cost cost(String version, List<HooksResult.PerRequest> perRequest, HookCost h) {
        List<HooksResult.PerRequest> mine = perRequest.stream().filter(p -> p.version().equals(version)).toList();
        Double entered = median(sorted(mine.stream().map(HooksResult.PerRequest::enteredPerRequest).toList()));
        Double exited = median(sorted(mine.stream().map(HooksResult.PerRequest::exitedPerRequest).toList()));
        Double called = median(sorted(mine.stream().map(HooksResult.PerRequest::calledPerRequest).toList()));
        // the denominator is the unhooked request's CPU: the hooks' cost is what they add to it
        Double cpuMs = median(sorted(perRequest.stream().filter(p -> p.version().equals(NONE))
                .map(HooksResult.PerRequest::cpuMsPerRequest).toList()));
        Double total = entered == null || exited == null || called == null ? null : entered + exited + called;
        Double ns = null;
        Double pct = null;
        Double upper = null;
        Double worst = null;
        if (total != null && h != null) {
            ns = HookCost.nsPerRequest(entered, exited, called, h.execNs(), h.callNs());
            double nsUpper = HookCost.nsPerRequest(entered, exited, called, h.execNsUpper(), h.callNsUpper());
            Double nsWorst = h.execNsNotInlined() == null ? null
                    : HookCost.nsPerRequest(entered, exited, called, h.execNsNotInlined(), h.callNsNotInlined());
            if (cpuMs != null && cpuMs > 0) {
                pct = round(100 * ns / (cpuMs * 1e6), 4);
                upper = round(100 * nsUpper / (cpuMs * 1e6), 4);
                worst = nsWorst == null ? null : round(100 * nsWorst / (cpuMs * 1e6), 4);
            }
            ns = round(ns, 1);
        }
        return new HooksResult.Cost(version, r3(total), r3(entered), r3(exited), r3(called), cpuMs == null ? null
                : round(cpuMs, 4), ns, pct, upper, worst);
    }

    /**
     * The goal computed from its parts: met when even the upper bound (JMH's errors the unfavourable
     * way) is under 1 %, not met when the point estimate is at or over it, else not resolved; not
     * measured without the counts, the CPU per request or the JMH file (then the detail gives the
     * formula with what was measured).
     */
    static HooksResult.Goal computedGoal(HooksResult.Cost c, HookCost h) {
        String goal = "computed: idle hooks at every " + (c.version().equals("all") ? "call and execution" : "execution")
                + " join point (" + c.version() + ") cost under " + GOAL_PCT + " % of a request's CPU";
        String counts = c.hooksPerRequest() == null ? "hooks per request not counted"
                : String.format(Locale.ROOT, "%s hooks per request (%s entries, %s exits, %s calls)",
                fmt(c.hooksPerRequest()), fmt(c.enteredPerRequest()), fmt(c.exitedPerRequest()),
                fmt(c.calledPerRequest()));
        String cpu = c.cpuMsPerRequest() == null ? "no-agent CPU per request not measured"
                : String.format(Locale.ROOT, "%.4f ms of CPU per request without the agent", c.cpuMsPerRequest());
        if (c.pct() == null) {
            String why = h == null ? "no JMH file given (--hook-cost FILE)" : "counts or CPU missing";
            return new HooksResult.Goal(goal, null, "not measured: " + why + "; " + counts + ", " + cpu
                    + "; cost % = ((entries + exits) x ns per execution hook + calls x ns per call hook) / CPU ns per"
                    + " request x 100");
        }
        String detail = String.format(Locale.ROOT, "%.4f %% (upper bound %.4f %%%s): %s x (%.3f ns per execution"
                        + " hook, %.3f per call hook, %s) = %s ns over %s", c.pct(), c.pctUpper(),
                c.pctNotInlined() == null ? "" : String.format(Locale.ROOT, "; hooks never inlined: %.4f %%",
                        c.pctNotInlined()), counts, h.execNs(), h.callNs(), Path.of(h.source()).getFileName(),
                fmt(c.nsPerRequest()), cpu);
        if (c.pctUpper() < GOAL_PCT) {
            return new HooksResult.Goal(goal, true, detail);
        }
        if (c.pct() >= GOAL_PCT) {
            return new HooksResult.Goal(goal, false, detail);
        }
        return new HooksResult.Goal(goal, null, detail + "; NOT RESOLVED: the JMH errors span the goal");
    }

    private static List<Double> sorted(List<Double> xs) {
        return xs.stream().filter(x -> x != null).sorted().toList();
    }

    static HooksResult.Goal costGoal(String goal, HooksResult.VersionSummary s, Double resolution) {
        if (s.meanRatioMedian() == null) {
            return new HooksResult.Goal(goal, null, "not measured (no run paired with a no-agent run)");
        }
        double pct = (s.meanRatioMedian() - 1) * 100;
        String detail = String.format(Locale.ROOT, "%+.2f %% (median of %d paired runs, range %+.2f to %+.2f %%);"
                        + " resolution %s", pct, s.runs(), (s.meanRatioMin() - 1) * 100, (s.meanRatioMax() - 1) * 100,
                resolution == null ? "unknown" : String.format(Locale.ROOT, "%.2f %%", resolution));
        double noise = resolution == null ? Double.POSITIVE_INFINITY : resolution;
        if (pct >= Math.max(GOAL_PCT, noise)) {
            return new HooksResult.Goal(goal, false, detail);
        }
        if (pct < GOAL_PCT && noise <= GOAL_PCT) {
            return new HooksResult.Goal(goal, true, detail);
        }
        return new HooksResult.Goal(goal, null, detail + "; NOT RESOLVED: the no-agent runs alone spread over more"
                + " than the goal, or the cost lies between the goal and that spread");
    }

    static HooksResult.Goal identityGoal(List<HooksResult.Identity> identity) {
        String goal = "after unweave every class is byte-identical to its original (the JVM's own class bytes)";
        if (identity.isEmpty()) {
            return new HooksResult.Goal(goal, null, "not checked (no unweave answered)");
        }
        int classes = identity.stream().mapToInt(HooksResult.Identity::classesWoven).sum();
        int same = identity.stream().mapToInt(HooksResult.Identity::identical).sum();
        List<String> differing = new ArrayList<>();
        identity.forEach(i -> i.differing().forEach(d -> differing.add(i.version() + " r" + i.repeat() + ": " + d)));
        boolean none = identity.stream().anyMatch(i -> i.classesWoven() == 0);
        String detail = String.format(Locale.ROOT, "%d of %d woven classes identical over %d unweaves", same, classes,
                identity.size()) + (differing.isEmpty() ? "" : "; differing: " + String.join(", ",
                differing.subList(0, Math.min(10, differing.size()))))
                + (none ? "; an unweave saw no woven class (the check saw nothing there)" : "");
        return new HooksResult.Goal(goal, differing.isEmpty() && !none ? Boolean.TRUE : none && differing.isEmpty() ? null
                : Boolean.FALSE, detail);
    }

    /** The no-agent runs' range of mean response time over their median, in %. */
    static Double resolutionPct(List<HooksResult.Run> runs) {
        List<Double> means = runs.stream().filter(r -> r.version().equals(NONE) && r.meanMs() != null)
                .map(HooksResult.Run::meanMs).sorted().toList();
        if (means.size() < 2) {
            return null;
        }
        return round(100 * (means.get(means.size() - 1) - means.get(0)) / median(means));
    }

    static HooksResult.VersionSummary summary(String version, String description, List<HooksResult.Run> runs) {
        List<HooksResult.Run> mine = runs.stream().filter(r -> r.version().equals(version) && r.meanMs() != null).toList();
        List<Double> ratios = new ArrayList<>();
        List<Double> p99Ratios = new ArrayList<>();
        for (HooksResult.Run r : mine) {
            Optional<HooksResult.Run> base = runs.stream().filter(o -> o.repeat() == r.repeat()
                    && o.version().equals(NONE) && o.meanMs() != null && o.meanMs() > 0).findFirst();
            if (base.isPresent()) {
                ratios.add(r.meanMs() / base.get().meanMs());
                if (r.p99Ms() != null && base.get().p99Ms() != null && base.get().p99Ms() > 0) {
                    p99Ratios.add(r.p99Ms() / base.get().p99Ms());
                }
            }
        }
        List<Double> means = mine.stream().map(HooksResult.Run::meanMs).sorted().toList();
        List<Double> p50 = mine.stream().map(HooksResult.Run::p50Ms).filter(x -> x != null).sorted().toList();
        List<Double> p99 = mine.stream().map(HooksResult.Run::p99Ms).filter(x -> x != null).sorted().toList();
        List<Double> sortedRatios = ratios.stream().sorted().toList();
        return new HooksResult.VersionSummary(version, description, mine.size(), r3(median(means)), r3(min(means)),
                r3(max(means)), r3(median(p50)), r3(median(p99)), r3(min(p99)), r3(max(p99)),
                r4(median(sortedRatios)), r4(min(sortedRatios)), r4(max(sortedRatios)),
                r4(median(p99Ratios.stream().sorted().toList())));
    }

    /** Bytes per join point and per hook instruction; null without join points. */
    static Double perUnit(long bytes, Long units) {
        return units == null || units <= 0 ? null : round((double) bytes / units, 2);
    }

    private static Double median(List<Double> sorted) {
        if (sorted.isEmpty()) {
            return null;
        }
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static Double min(List<Double> sorted) {
        return sorted.isEmpty() ? null : sorted.get(0);
    }

    private static Double max(List<Double> sorted) {
        return sorted.isEmpty() ? null : sorted.get(sorted.size() - 1);
    }

    private static Double r3(Double d) {
        return d == null ? null : round(d, 3);
    }

    private static Double r4(Double d) {
        return d == null ? null : round(d, 4);
    }

    private static String fmt(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.3f", d);
    }

    private static String ratio(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%.4f", d);
    }
}
