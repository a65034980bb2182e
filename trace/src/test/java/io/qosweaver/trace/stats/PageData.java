package io.qosweaver.trace.stats;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a statistics page embeds, read back for tests: the states, and per thread its exact totals
 * and the sums of its embedded intervals (what the page's script adds up), by state.
 */
public final class PageData {
    private static final Pattern STATE = Pattern.compile("\\[(\\d+),\"((?:[^\"\\\\]|\\\\.)*)\"\\]");
    private static final Pattern THREAD = Pattern.compile(
            "^\\{\"tid\":(\\d+),\"name\":\"((?:[^\"\\\\]|\\\\.)*)\",\"firstUs\":(-?\\d+),\"lastUs\":(-?\\d+),"
                    + "\"totals\":\\[([^\\]]*)\\],\"iv\":\\[([^\\]]*)\\]\\}", Pattern.MULTILINE);
    private static final Pattern NUMBER = Pattern.compile("\"(\\w+)\":(-?\\d+)");

    public final String html;
    public final List<String> states = new ArrayList<>();
    public final Map<String, Thread> threads = new LinkedHashMap<>();
    public final Map<String, Long> numbers = new HashMap<>();

    /** One thread's row, by state name ("level:name", level as in the page: os, jvm, scheduler, app, server, user). */
    public static final class Thread {
        public int tid;
        public long tracedUs;
        public final Map<String, Long> totalsUs = new HashMap<>();
        public final Map<String, Long> intervalsUs = new HashMap<>();

        public long totalUs(String state) {
            return totalsUs.getOrDefault(state, 0L);
        }

        public double share(String state) {
            return tracedUs > 0 ? (double) totalUs(state) / tracedUs : 0;
        }
    }

    private PageData(String html) {
        this.html = html;
    }

    public static PageData read(Path page) throws IOException {
        String html = Files.readString(page, StandardCharsets.UTF_8);
        PageData d = new PageData(html);
        String[] levels = java.util.Arrays.stream(io.qosweaver.trace.timeline.Level.values())
                .map(io.qosweaver.trace.timeline.Level::key).toArray(String[]::new);
        int from = html.indexOf("\"states\":[");
        int to = html.indexOf("],\"classes\"", from);
        Matcher m = STATE.matcher(html.substring(from, to));
        while (m.find()) {
            d.states.add(levels[Integer.parseInt(m.group(1))] + ":" + m.group(2));
        }
        int stats = html.indexOf("\"cap\":");
        Matcher n = NUMBER.matcher(html.substring(stats, html.indexOf("\"threads\":", stats)));
        while (n.find()) {
            d.numbers.put(n.group(1), Long.parseLong(n.group(2)));
        }
        Matcher t = THREAD.matcher(html);
        while (t.find()) {
            Thread th = new Thread();
            th.tid = Integer.parseInt(t.group(1));
            th.tracedUs = Long.parseLong(t.group(4)) - Long.parseLong(t.group(3));
            long[] tot = longs(t.group(5));
            for (int i = 0; i < tot.length; i += 3) {
                th.totalsUs.merge(d.states.get((int) tot[i]), tot[i + 2], Long::sum);
            }
            long[] iv = longs(t.group(6));
            for (int i = 0; i < iv.length; i += 4) {
                th.intervalsUs.merge(d.states.get((int) iv[i]), iv[i + 3], Long::sum);
            }
            d.threads.put(t.group(2), th);
        }
        return d;
    }

    private static long[] longs(String csv) {
        if (csv.isEmpty()) {
            return new long[0];
        }
        String[] p = csv.split(",");
        long[] out = new long[p.length];
        for (int i = 0; i < p.length; i++) {
            out[i] = Long.parseLong(p[i]);
        }
        return out;
    }
}
