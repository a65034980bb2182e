package io.qosweaver.bench.mixed;

import io.qosweaver.bench.mixed.MixedRounds.Metric;
import io.qosweaver.bench.mixed.MixedRounds.RoundGoal;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code index.html} and {@code RESULTS.md} of a repeated {@code bench mixed}: the spread over rounds. */
public final class MixedRoundsReport {
    private static final String[][] COLUMNS = {
        {"light_p99_to_idle", "light p99 / idle"},
        {MixedRounds.LIGHT_P99_TO_ROUND_IDLE, "light p99 / the round's median idle p99"},
        {"heavy_to_unscheduled", "heavy / unscheduled"},
        {"heavy_per_s", "heavy /s"}, {"light_p99_ms", "light p99 ms"}, {"idle_light_p99_ms", "own idle light p99 ms"},
        {"errors", "errors"}, {"cpu_ms_per_heavy", "CPU ms per heavy"},
        {"light_tail_with_gc_pause", "tail requests in a GC pause"}, {"other_cpu_cores", "others' CPU cores"},
        {"idle_other_cpu_cores", "others' CPU cores, idle"}};

    private MixedRoundsReport() {
    }

    public static void write(MixedRounds r, Path dir) throws IOException {
        ReportDocument doc = new ReportDocument("Mixed load on " + r.app().get("description") + ", " + r.rounds()
                + " rounds");
        doc.heading("What the numbers show").bullets(r.summary());
        doc.heading("Per version: median [range] over the rounds").table(versionRows(r));
        doc.paragraph("Each round is a complete run, in round-K/ (its own index.html, RESULTS.md, results.json and "
                + "app logs); a round's ratios are against the unscheduled app of that round (the mean of unscheduled "
                + "and unscheduled-end when both ran), or, in the second column, against the median of the idle light p99 "
                + "of every process of the round (one process's idle p99 moves with whether its idle window caught a "
                + "collection). The median is the nearest-rank one (with 2 rounds, the lower).");
        doc.heading("Goals (issue 13), per round").table(goalRows(r));
        doc.heading("Version order and others' CPU per round").table(orderRows(r));
        doc.command(r.command());
        doc.keyValues("Application", r.app());
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.write(dir);
    }

    static List<String[]> versionRows(MixedRounds r) {
        List<String[]> rows = new ArrayList<>();
        String[] head = new String[COLUMNS.length + 1];
        head[0] = "version";
        for (int i = 0; i < COLUMNS.length; i++) {
            head[i + 1] = COLUMNS[i][1];
        }
        rows.add(head);
        for (Map.Entry<String, Map<String, Metric>> v : r.versions().entrySet()) {
            String[] row = new String[COLUMNS.length + 1];
            row[0] = v.getKey();
            for (int i = 0; i < COLUMNS.length; i++) {
                Metric m = v.getValue().get(COLUMNS[i][0]);
                row[i + 1] = m == null ? "-" : m.cell();
            }
            rows.add(row);
        }
        return rows;
    }

    static List<String[]> goalRows(MixedRounds r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "goal", "target", "value per round", "met in", "met in every round",
            "met in the undisturbed rounds"});
        for (RoundGoal g : r.goals()) {
            rows.add(new String[] {g.version(), g.goal(), g.target(),
                    String.join(" / ", g.perRound().stream().map(Format::cell).toList()),
                    g.metRounds() + " of " + r.rounds(), g.met() == null ? "not measured" : g.met() ? "yes" : "NO",
                    g.metUndisturbed() == null ? "none measured" : g.metUndisturbedRounds() + " of "
                            + g.measuredUndisturbedRounds() + (g.metUndisturbed() ? ": yes" : ": NO")});
        }
        return rows;
    }

    private static List<String[]> orderRows(MixedRounds r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"round", "order", "others' CPU, most in one window (cores)", "disturbed"});
        for (int i = 0; i < r.order().size(); i++) {
            rows.add(new String[] {"round-" + (i + 1), String.join(", ", r.order().get(i)),
                Format.cell(r.othersMax().get(i)), r.disturbed().get(i) ? "yes (above "
                        + Format.cell(MixedRounds.DISTURBED_CORES) + ")" : "no"});
        }
        return rows;
    }
}
