package io.qosweaver.pointcuts;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One or more profiles in memory, columnar: join points as primitive arrays, signatures interned
 * to ints. Join points are grouped into <em>timelines</em>, one per (profile file, thread), each
 * sorted by time; the generator slices each timeline into its own slots (see
 * {@link PointcutGenerator}). About 16 bytes per join point.
 */
public final class Profile {
    private final String[] signatures;
    private final String[] timelineNames;
    private final long[] timelineThreads;
    private final int[] timelineStart;
    private final long[] times;
    private final int[] callers;
    private final int[] callees;
    private final SynchronizedRegions recordedRegions;

    private Profile(String[] signatures, String[] timelineNames, long[] timelineThreads, int[] timelineStart,
            long[] times, int[] callers, int[] callees, SynchronizedRegions recordedRegions) {
        this.recordedRegions = recordedRegions;
        this.signatures = signatures;
        this.timelineNames = timelineNames;
        this.timelineThreads = timelineThreads;
        this.timelineStart = timelineStart;
        this.times = times;
        this.callers = callers;
        this.callees = callees;
    }

    /** Reads and merges the files, each binary (detected by its magic number) or plain text. */
    public static Profile read(List<Path> files) throws IOException {
        Builder b = builder();
        for (Path f : files) {
            b.read(f);
        }
        return b.build();
    }

    /**
     * The calls the profiler found inside monitors when it wove its probe (binary profiles of the
     * agent record them), or null when no file of this profile recorded them (text profiles, and
     * binary ones from before they did).
     */
    public SynchronizedRegions recordedRegions() {
        return recordedRegions;
    }

    public static Builder builder() {
        return new Builder();
    }

    public int size() {
        return times.length;
    }

    public int signatureCount() {
        return signatures.length;
    }

    public String signature(int id) {
        return signatures[id];
    }

    public int timelineCount() {
        return timelineNames.length;
    }

    /** {@code SOURCE thread N}. */
    public String timelineName(int timeline) {
        return timelineNames[timeline];
    }

    /** Index of the timeline's first join point; {@code timelineStart(timelineCount())} is {@link #size()}. */
    public int timelineStart(int timeline) {
        return timelineStart[timeline];
    }

    public long time(int i) {
        return times[i];
    }

    public int callerId(int i) {
        return callers[i];
    }

    public int calleeId(int i) {
        return callees[i];
    }

    public JoinPoint joinPoint(int i) {
        return new JoinPoint(times[i], threadOf(i), signatures[callers[i]], signatures[callees[i]]);
    }

    private long threadOf(int i) {
        int t = Arrays.binarySearch(timelineStart, i);
        t = t >= 0 ? t : -t - 2;
        while (t + 1 < timelineStart.length && timelineStart[t + 1] == i) {
            t++;
        }
        return timelineThreads[t];
    }

    /**
     * Collects join points from any number of sources; each {@link #source} starts a new set of
     * timelines, so that the same thread id in two files stays two timelines. Not thread-safe.
     */
    public static final class Builder implements ProfileSink {
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> signatures = new ArrayList<>();
        private final Map<String, Timeline> timelines = new LinkedHashMap<>();
        private final List<String> warnings = new ArrayList<>();
        private final java.util.Set<String> callsInMonitor = new java.util.HashSet<>();
        private boolean monitorsRecorded;
        private String source = "profile";
        private int sourceIndex;
        private long lastThread = Long.MIN_VALUE;
        private Timeline last;

        private Builder() {}

        /** Starts the join points of another profile (a file name, for the timeline names). */
        public Builder source(String name) {
            source = name;
            sourceIndex++;
            last = null;
            return this;
        }

        /** Reads one file into this builder as its own source. */
        public Builder read(Path file) throws IOException {
            source(file.toString());
            byte[] head = new byte[BinaryProfileFormat.MAGIC.length];
            int n;
            try (InputStream in = Files.newInputStream(file)) {
                n = in.readNBytes(head, 0, head.length);
            }
            if (n == head.length && Arrays.equals(head, BinaryProfileFormat.MAGIC)) {
                BinaryProfileReader.Summary summary = BinaryProfileReader.read(file, this);
                String limit = summary.meta().get("limit");
                if (limit != null) {
                    warnings.add(file + " is partial: the profiler stopped recording because " + limit);
                }
                if (summary.meta().containsKey(BinaryProfileFormat.MONITORS_RECORDED)) {
                    monitorsRecorded = true;
                    summary.meta().forEach((k, v) -> {
                        if (k.startsWith(BinaryProfileFormat.IN_MONITOR_PREFIX)) {
                            callsInMonitor.add(v);
                        }
                    });
                }
            } else {
                TextProfileReader.read(file, this);
            }
            return this;
        }

        /** What the reader wants the user to know, e.g. that a binary profile hit a size limit. */
        public List<String> warnings() {
            return List.copyOf(warnings);
        }

        /** The id of a canonical signature, interning it. */
        public int intern(String canonicalSignature) {
            Integer id = ids.get(canonicalSignature);
            if (id == null) {
                id = signatures.size();
                ids.put(canonicalSignature, id);
                signatures.add(canonicalSignature);
            }
            return id;
        }

        @Override
        public void joinPoint(long timeNanos, long threadId, String caller, String callee) {
            joinPoint(timeNanos, threadId, intern(caller), intern(callee));
        }

        /** With ids from {@link #intern}. */
        public void joinPoint(long timeNanos, long threadId, int callerId, int calleeId) {
            Timeline t = last;
            if (t == null || threadId != lastThread) {
                String key = sourceIndex + " " + threadId;
                t = timelines.get(key);
                if (t == null) {
                    t = new Timeline(source + " thread " + threadId, threadId);
                    timelines.put(key, t);
                }
                last = t;
                lastThread = threadId;
            }
            t.add(timeNanos, callerId, calleeId);
        }

        public Profile build() {
            int total = 0;
            for (Timeline t : timelines.values()) {
                total += t.size;
            }
            long[] times = new long[total];
            int[] callers = new int[total];
            int[] callees = new int[total];
            String[] names = new String[timelines.size()];
            long[] threads = new long[timelines.size()];
            int[] starts = new int[timelines.size() + 1];
            int k = 0;
            int at = 0;
            for (Timeline t : timelines.values()) {
                names[k] = t.name;
                threads[k] = t.threadId;
                starts[k++] = at;
                t.sortByTime();
                System.arraycopy(t.times, 0, times, at, t.size);
                System.arraycopy(t.callers, 0, callers, at, t.size);
                System.arraycopy(t.callees, 0, callees, at, t.size);
                at += t.size;
            }
            starts[k] = at;
            return new Profile(signatures.toArray(new String[0]), names, threads, starts, times, callers, callees,
                    monitorsRecorded ? SynchronizedRegions.recorded(callsInMonitor) : null);
        }
    }

    private static final class Timeline {
        final String name;
        final long threadId;
        long[] times = new long[16];
        int[] callers = new int[16];
        int[] callees = new int[16];
        int size;
        boolean sorted = true;

        Timeline(String name, long threadId) {
            this.name = name;
            this.threadId = threadId;
        }

        void add(long time, int caller, int callee) {
            if (size == times.length) {
                int n = size * 2;
                times = Arrays.copyOf(times, n);
                callers = Arrays.copyOf(callers, n);
                callees = Arrays.copyOf(callees, n);
            }
            if (size > 0 && time < times[size - 1]) {
                sorted = false;
            }
            times[size] = time;
            callers[size] = caller;
            callees[size] = callee;
            size++;
        }

        /** Stable: join points with equal time stamps keep their recorded order. */
        void sortByTime() {
            if (sorted) {
                return;
            }
            Integer[] order = new Integer[size];
            for (int i = 0; i < size; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(times[a], times[b]));
            long[] t2 = new long[size];
            int[] c1 = new int[size];
            int[] c2 = new int[size];
            for (int i = 0; i < size; i++) {
                t2[i] = times[order[i]];
                c1[i] = callers[order[i]];
                c2[i] = callees[order[i]];
            }
            times = t2;
            callers = c1;
            callees = c2;
            sorted = true;
        }
    }
}
