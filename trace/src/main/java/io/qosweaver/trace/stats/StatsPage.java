package io.qosweaver.trace.stats;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.timeline.Level;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes the statistics view: the page ({@link StatsTemplate}: inline CSS and script, no fetch)
 * with the data in a JSON script element. Times in the data are microseconds from the
 * trace's start; each thread's intervals are flat quadruples {@code state, class, start, duration}.
 */
public final class StatsPage {
    private static final String MARK = StatsTemplate.MARK;

    private StatsPage() {
    }

    /** The page beside a trace file: {@code run.pftrace} gives {@code run.html}. */
    public static Path besideTrace(Path trace) {
        String n = trace.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return trace.resolveSibling((dot > 0 ? n.substring(0, dot) : n) + ".html");
    }

    /**
     * Writes the page.
     *
     * @param names the threads' names by tid
     * @param start the trace's start (CLOCK_MONOTONIC ns), the page's time zero
     * @param end the trace's end
     * @param stats the trace statistics (events, loss by cause), shown as they are
     */
    public static void write(Path out, StateIntervals d, Map<Integer, String> names, String process, long start, long end,
            Args stats) throws IOException {
        String template = StatsTemplate.PAGE;
        int at = template.indexOf(MARK);
        Path part = out.resolveSibling(out.getFileName() + ".part");
        try (Writer w = Files.newBufferedWriter(part, StandardCharsets.UTF_8)) {
            w.write(template, 0, at);
            data(w, d, names, process, start, end, stats);
            w.write(template, at + MARK.length(), template.length() - at - MARK.length());
        }
        Files.move(part, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static void data(Writer w, StateIntervals d, Map<Integer, String> names, String process, long start, long end,
            Args stats) throws IOException {
        w.write("{\"process\":");
        str(w, process);
        w.write(",\"durationUs\":" + us(end, start));
        w.write(",\"levels\":[");
        Level[] levels = Level.values();
        for (int i = 0; i < levels.length; i++) {
            w.write(i > 0 ? "," : "");
            str(w, levels[i].key());
        }
        w.write("],\"states\":[");
        List<String> states = d.states();
        for (int i = 0; i < states.size(); i++) {
            String s = states.get(i);
            int colon = s.indexOf(':');
            w.write((i > 0 ? "," : "") + "[" + s.substring(0, colon) + ",");
            str(w, s.substring(colon + 1));
            w.write("]");
        }
        w.write("],\"classes\":[");
        List<String> classes = d.classes();
        for (int i = 0; i < classes.size(); i++) {
            w.write(i > 0 ? "," : "");
            str(w, classes.get(i));
        }
        w.write("],\"cap\":{\"max\":" + d.maxIntervals() + ",\"kept\":" + d.kept() + ",\"dropped\":" + d.dropped()
                + ",\"fromUs\":" + (d.dropped() > 0 ? Long.toString(us(d.droppedFrom(), start)) : "null") + "}");
        w.write(",\"stats\":{");
        for (int i = 0; i < stats.size(); i++) {
            w.write(i > 0 ? "," : "");
            str(w, stats.name(i));
            w.write(":");
            if (stats.string(i) != null) {
                str(w, stats.string(i));
            } else {
                w.write(Long.toString(stats.number(i)));
            }
        }
        w.write("},\"threads\":[");
        boolean firstThread = true;
        for (StateIntervals.PerThread t : d.threads()) {
            if (t.totals.isEmpty()) {
                continue; // only instants (a join event): nothing to count
            }
            w.write(firstThread ? "\n" : ",\n");
            firstThread = false;
            w.write("{\"tid\":" + t.tid + ",\"name\":");
            str(w, names.getOrDefault(t.tid, "tid " + t.tid));
            w.write(",\"firstUs\":" + us(t.first, start) + ",\"lastUs\":" + us(t.last, start) + ",\"totals\":[");
            boolean first = true;
            for (Map.Entry<Long, long[]> e : t.totals.entrySet()) {
                w.write(first ? "" : ",");
                first = false;
                long k = e.getKey();
                w.write((int) (k >>> 32) + "," + ((int) k - 1) + "," + (e.getValue()[0] + 500) / 1000);
            }
            w.write("],\"iv\":[");
            for (int i = 0; i < t.n; i++) {
                long s = us(t.start[i], start);
                w.write((i > 0 ? "," : "") + t.state[i] + "," + t.cls[i] + "," + s + "," + (us(t.end[i], start) - s));
            }
            w.write("]}");
        }
        w.write("]}");
    }

    private static long us(long ts, long start) {
        return Math.floorDiv(ts - start, 1000);
    }

    /** A JSON string, safe inside a script element. */
    private static void str(Writer w, String s) throws IOException {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                b.append('\\').append(c);
            } else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                b.append(String.format("\\u%04x", (int) c));
            } else {
                b.append(c);
            }
        }
        w.write(b.append('"').toString());
    }
}
