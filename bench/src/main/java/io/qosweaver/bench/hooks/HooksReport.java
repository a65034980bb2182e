package io.qosweaver.bench.hooks;

import io.qosweaver.bench.report.GoalTable;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code index.html} and {@code RESULTS.md} of {@code bench hooks}, from the results alone. */
public final class HooksReport {
    private HooksReport() {
    }

    public static void write(Path dir, HooksResult r) throws IOException {
        ReportDocument doc = new ReportDocument("Hooks: what idle hooks cost the river monitor's light page");
        doc.heading("What the numbers show").bullets(r.summary());
        List<String> warn = new ArrayList<>();
        r.errors().forEach((k, v) -> warn.add("FAILED (" + k + "): " + v));
        r.goals().stream().filter(g -> Boolean.FALSE.equals(g.met()))
                .forEach(g -> warn.add("Goal NOT met: " + g.goal() + " (" + g.detail() + ")"));
        doc.warnings(warn);
        doc.command(r.command());
        doc.heading("Goals").table(GoalTable.of(r.goals(), HooksResult.Goal::goal, HooksResult.Goal::met,
                HooksResult.Goal::detail, "not resolved"));
        doc.heading("Response time per version, ours beside the paper's (Fig. 7)").table(versions(r));
        doc.heading("The idle hooks' cost computed from its parts (hooks per request x ns per hook / CPU per request)")
                .table(cost(r));
        doc.paragraph(r.hookCost() == null ? "No JMH file was given (--hook-cost FILE): the cost is not computed; the"
                + " counts and the CPU per request above are its parts (jmh/RESULTS.md: HooksBenchmark)."
                : String.format(java.util.Locale.ROOT, "One idle hook, from %s: %.3f ns per entry or exit hook (upper"
                        + " bound %.3f), %.3f ns per call hook (upper bound %.3f)%s. The verdict uses the upper bound.",
                r.hookCost().source(), r.hookCost().execNs(), r.hookCost().execNsUpper(), r.hookCost().callNs(),
                r.hookCost().callNsUpper(), r.hookCost().execNsNotInlined() == null ? "" : String.format(
                        java.util.Locale.ROOT, "; never inlined: %.3f and %.3f ns", r.hookCost().execNsNotInlined(),
                        r.hookCost().callNsNotInlined())));
        doc.heading("Per process, after its window: CPU per request, hooks fired per request").table(perRequest(r));
        doc.heading("What a hook takes (while woven)").table(memory(r));
        doc.heading("Byte identity after unweave (the JVM's own class bytes)").table(identity(r));
        doc.heading("Every run").table(runs(r));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("A repeat runs four processes, one after the other, in an order rotated from one repeat to the "
                + "next: no agent; the agent's hooks mode at every execution join point of the app's packages; at every "
                + "call and execution join point; the river monitor's policy, whose process is measured again after "
                + "qosweaver ctl unweave. A ratio is a run's mean response time over the no-agent run of its own "
                + "repeat; median and range over the repeats. An idle hook is a call to a small static method that "
                + "reads a volatile field and branches (nothing is ever attached). Response time is the load client's "
                + "(another JVM), from each request's intended start at a fixed rate; the paper timed the server's "
                + "handling alone inside MyServer (C++), so its ratios are of a much smaller time than ours, which "
                + "includes the loopback network, the HTTP client and Jetty. Code bytes: the class files the JVM "
                + "defined, woven minus original, recorded by the agent's taps; metaspace: both versions of the woven "
                + "classes defined (parsed, not linked) in loaders of the agent's own, so linking's constant-pool "
                + "cache and the JIT's profiles are not in it; the paper's 29 bytes are machine code of a C++ build.");
        doc.write(dir);
    }

    private static List<String[]> versions(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "what", "runs", "mean ms (median)", "(min - max)", "p50 ms", "p99 ms (median)",
            "(min - max)", "mean / no agent (median)", "(min - max)", "p99 / no agent", "paper µs", "paper ratio",
            "paper"});
        for (HooksResult.VersionSummary v : r.versions()) {
            HooksResult.PaperRow paper = r.paper().stream().filter(x -> x.version().equals(v.version())).findFirst()
                    .orElse(null);
            rows.add(new String[] {v.version(), v.description(), Integer.toString(v.runs()), ms(v.meanMsMedian()),
                range(v.meanMsMin(), v.meanMsMax()), ms(v.p50MsMedian()), ms(v.p99MsMedian()),
                range(v.p99MsMin(), v.p99MsMax()), ratio(v.meanRatioMedian()),
                v.meanRatioMin() == null ? "-" : ratio(v.meanRatioMin()) + " - " + ratio(v.meanRatioMax()),
                ratio(v.p99RatioMedian()), paper == null ? "-" : Format.cell(paper.responseUs()),
                paper == null ? "-" : ratio(paper.ratio()), paper == null ? "-" : paper.note()});
        }
        rows.add(new String[] {"resolution", "the no-agent runs' spread of the mean (max - min) / median", "", "", "", "",
            "", "", r.resolutionPct() == null ? "-" : Format.cell(r.resolutionPct()) + " %", "", "", "", "", ""});
        return rows;
    }

    private static List<String[]> cost(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "hooks / request", "entries", "exits", "calls", "CPU ms / request (no agent)",
            "hooks' ns / request", "cost %", "upper bound %", "never inlined %"});
        r.cost().forEach(c -> rows.add(new String[] {c.version(), Format.cell(c.hooksPerRequest()),
            Format.cell(c.enteredPerRequest()), Format.cell(c.exitedPerRequest()), Format.cell(c.calledPerRequest()),
            pct(c.cpuMsPerRequest()), Format.cell(c.nsPerRequest()), pct(c.pct()), pct(c.pctUpper()),
            pct(c.pctNotInlined())}));
        return rows;
    }

    private static List<String[]> perRequest(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"repeat", "version", "CPU phase: pages", "CPU ms / page", "counting phase: pages",
            "entries", "exits", "calls", "entries / page", "exits / page", "calls / page"});
        r.perRequest().forEach(x -> rows.add(new String[] {Integer.toString(x.repeat()), x.version(),
            Long.toString(x.cpuRequests()), pct(x.cpuMsPerRequest()), Long.toString(x.countRequests()), num(x.entered()),
            num(x.exited()), num(x.called()), Format.cell(x.enteredPerRequest()), Format.cell(x.exitedPerRequest()),
            Format.cell(x.calledPerRequest())}));
        return rows;
    }

    /** Four decimals: the figures are small and the goal is 1 %. */
    private static String pct(Double d) {
        return d == null ? "-" : String.format(java.util.Locale.ROOT, "%.4f", d);
    }

    private static List<String[]> memory(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"repeat", "version", "join points", "executions", "calls", "hook instructions", "classes",
            "class bytes original", "woven", "code bytes / join point", "code bytes / hook instruction",
            "metaspace original", "woven", "metaspace bytes / join point", "classes not definable"});
        r.memory().forEach(m -> rows.add(new String[] {Integer.toString(m.repeat()), m.version(),
            Long.toString(m.joinPoints()), num(m.executions()), num(m.calls()), num(m.hookSites()),
            Integer.toString(m.classesWoven()), Long.toString(m.originalClassBytes()), Long.toString(m.wovenClassBytes()),
            Format.cell(m.codeBytesPerJoinPoint()), Format.cell(m.codeBytesPerHookSite()),
            Long.toString(m.metaspaceOriginalBytes()), Long.toString(m.metaspaceWovenBytes()),
            Format.cell(m.metaspaceBytesPerJoinPoint()), Integer.toString(m.metaspaceFailed())}));
        rows.add(new String[] {"paper", "all", "3378", "865", "2513", "-", "-", "300428", "399590", "29", "-", "-", "-",
            "-", "-"});
        return rows;
    }

    private static List<String[]> identity(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"repeat", "version", "classes woven", "byte-identical after unweave", "differing"});
        r.identity().forEach(i -> rows.add(new String[] {Integer.toString(i.repeat()), i.version(),
            Integer.toString(i.classesWoven()), Integer.toString(i.identical()),
            i.differing().isEmpty() ? "-" : String.join(", ", i.differing())}));
        return rows;
    }

    private static List<String[]> runs(HooksResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"repeat", "order", "version", "pages", "errors", "pages/s", "mean ms", "p50 ms", "p99 ms",
            "log"});
        r.runs().forEach(x -> rows.add(new String[] {Integer.toString(x.repeat()), Integer.toString(x.order()),
            x.version(), Long.toString(x.requests()), Long.toString(x.errors()), Format.cell(x.throughputPerS()),
            ms(x.meanMs()), ms(x.p50Ms()), ms(x.p99Ms()), x.log()}));
        return rows;
    }

    private static String range(Double a, Double b) {
        return a == null ? "-" : ms(a) + " - " + ms(b);
    }

    /** Ratios near 1 need four decimals: the goal is 1 %. */
    private static String ratio(Double d) {
        return d == null ? "-" : String.format(java.util.Locale.ROOT, "%.4f", d);
    }

    private static String ms(Double d) {
        return d == null ? "-" : String.format(java.util.Locale.ROOT, "%.3f", d);
    }

    private static String num(Long n) {
        return n == null ? "-" : Long.toString(n);
    }
}
