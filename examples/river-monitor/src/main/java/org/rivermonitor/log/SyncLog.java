package org.rivermonitor.log;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.rivermonitor.Reading;

/**
 * An application log whose writers are {@code synchronized} on the log: the paper's
 * {@code Logging} class (QoSWeaver 4.4, 5.4), added to the river monitor only with
 * {@code --sync-log FILE|memory}. The collector writes one line per reading
 * ({@link #writeCollection}), the chart servlet one line per chart ({@link #writeGeneration}).
 *
 * <p>Why it is built this way: {@link #writeGeneration} formats its line in a plain method,
 * {@link #formatGeneration}. A control point woven there ({@code call(..) && withincode(String
 * SyncLog.formatGeneration(..))}) is in code that holds no monitor of its own, so the weaver's
 * in-monitor check cannot see that its caller holds this log's monitor: a chart thread told to
 * yield parks there with the lock held, the collector then blocks in {@link #writeCollection}, and
 * under the importance policy nothing wakes the chart thread but the collector's end: the paper's
 * deadlock. The work is a line of text, as cheap as the paper's logger.
 */
public final class SyncLog implements AutoCloseable {
    /** Memory mode keeps at most this many characters, then starts again (bounded, still real work). */
    static final int MEMORY_CHARS = 64 * 1024;

    private final Writer file;
    private final StringBuilder memory;
    private long collections;
    private long generations;
    private boolean failed;

    private SyncLog(Writer file) {
        this.file = file;
        this.memory = file == null ? new StringBuilder(MEMORY_CHARS + 256) : null;
    }

    /** {@code memory}: lines kept in a bounded buffer; anything else: a file, created or appended to. */
    public static SyncLog open(String where) throws IOException {
        if (where.equals("memory")) {
            return new SyncLog(null);
        }
        Path p = Path.of(where);
        if (p.toAbsolutePath().getParent() != null) {
            Files.createDirectories(p.toAbsolutePath().getParent());
        }
        return new SyncLog(Files.newBufferedWriter(p, StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND));
    }

    /** The collector, once per reading it obtained. */
    public synchronized void writeCollection(Reading r) {
        append(formatCollection(r));
        collections++;
    }

    /** The chart servlet, once per chart: which chart and from how many points. */
    public synchronized void writeGeneration(int riverId, int hours, int points) {
        append(formatGeneration(System.currentTimeMillis(), riverId, hours, points));
        generations++;
    }

    /** Not synchronized on purpose (see the class comment): the generation line. */
    static String formatGeneration(long timeMs, int riverId, int hours, int points) {
        return Instant.ofEpochMilli(timeMs) + " generation river=" + riverId + " hours=" + hours + " points=" + points;
    }

    static String formatCollection(Reading r) {
        return Instant.ofEpochMilli(r.ts()) + " collection river=" + r.riverId() + " level_m=" + r.levelM();
    }

    private void append(String line) {
        if (memory != null) {
            if (memory.length() > MEMORY_CHARS) {
                memory.setLength(0);
            }
            memory.append(line).append('\n');
            return;
        }
        if (failed) {
            return;
        }
        try {
            file.write(line);
            file.write('\n');
        } catch (IOException e) {
            // a log that cannot be written must not fail a collection or a chart: said once, then off
            failed = true;
            System.err.println("river-monitor: --sync-log: cannot write, logging stops: " + e);
        }
    }

    public synchronized long collections() {
        return collections;
    }

    public synchronized long generations() {
        return generations;
    }

    /** The lines still in memory (memory mode), or "" for a file log. */
    public synchronized String memoryText() {
        return memory == null ? "" : memory.toString();
    }

    @Override
    public synchronized void close() throws IOException {
        if (file != null) {
            file.close();
        }
    }
}
