package io.qosweaver.pointcuts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Profiles summarized into the slots of one slot length: what the generator of Fig. 3 works on.
 * Per timeline (one per profile file and thread) and slot, each (caller, callee) pair that
 * occurred there with its count and the offsets of its first and last occurrence. Memory grows
 * with the entries (about 16 bytes each), not with the join points: a pair called a million times
 * in a slot is one entry, so a profile of 10^9 join points fits in a small heap.
 *
 * <p>Built from any profile: version 1 binary files are streamed (never held in memory), version 2
 * files' base slots are merged into slots of this length (which must be a multiple of theirs),
 * text profiles and {@link Profile}s are summarized from memory. Slot k of a timeline is
 * {@code [first + k * slotNanos, first + (k + 1) * slotNanos)} from its first join point, and the
 * timelines' slots are numbered one after the other, as the generator always did.
 *
 * <p><b>Request spans.</b> A version 2 file that records request spans ({@link
 * BinaryProfileFormat#REQUEST_SPANS}) is summarized within them only: each span with a join point
 * becomes a timeline of its own, from the span's start to its end (a thread's time between two
 * requests is no slot, and no gap), its slots those of the thread's slots that the span overlaps;
 * a timeline without a span, or without a join point inside one, is left out, and so is every
 * join point outside a span ({@link #timelinesOutsideRequests()}, {@link
 * #joinPointsOutsideRequests()}). Spans are applied to the file's base slots, before they are
 * merged: a base-slot entry that a span's boundary cuts is kept, its first and last occurrence
 * moved inside the span (where in the entry the boundary falls is not known), in the first span
 * that cuts it. Such a timeline's slot k starts at {@link #timelineOrigin} {@code + k * slotNanos},
 * up to a slot before its start.
 */
public final class SlotProfile {
    /** Slots beyond this mean a target interval far too small for the profile. */
    static final long MAX_SLOTS = 1L << 28;

    private final long slotNanos;
    private final String[] signatures;
    private final int[] pairCaller;
    private final int[] pairCallee;
    private final long[] occurrences;
    private final String[] timelineNames;
    private final long[] timelineStart;
    private final long[] timelineEnd;
    private final long[] timelineOrigin;
    private final int[] timelineFirstSlot;
    private final int[] slotStart;
    private final int[] entryPair;
    private final int[] entryCount;
    private final int[] entryFirst;
    private final int[] entryLast;
    private final long joinPoints;
    private final SynchronizedRegions recordedRegions;
    private final List<String> warnings;
    private final int requestSpans;
    private final int timelinesOutsideRequests;
    private final long joinPointsOutsideRequests;

    private SlotProfile(long slotNanos, String[] signatures, int[] pairCaller, int[] pairCallee, long[] occurrences,
            String[] timelineNames, long[] timelineStart, long[] timelineEnd, long[] timelineOrigin,
            int[] timelineFirstSlot, int[] slotStart, int[] entryPair, int[] entryCount, int[] entryFirst, int[] entryLast,
            long joinPoints, SynchronizedRegions recordedRegions, List<String> warnings, int requestSpans,
            int timelinesOutsideRequests, long joinPointsOutsideRequests) {
        this.slotNanos = slotNanos;
        this.signatures = signatures;
        this.pairCaller = pairCaller;
        this.pairCallee = pairCallee;
        this.occurrences = occurrences;
        this.timelineNames = timelineNames;
        this.timelineStart = timelineStart;
        this.timelineEnd = timelineEnd;
        this.timelineOrigin = timelineOrigin;
        this.timelineFirstSlot = timelineFirstSlot;
        this.slotStart = slotStart;
        this.entryPair = entryPair;
        this.entryCount = entryCount;
        this.entryFirst = entryFirst;
        this.entryLast = entryLast;
        this.joinPoints = joinPoints;
        this.recordedRegions = recordedRegions;
        this.warnings = List.copyOf(warnings);
        this.requestSpans = requestSpans;
        this.timelinesOutsideRequests = timelinesOutsideRequests;
        this.joinPointsOutsideRequests = joinPointsOutsideRequests;
    }

    /** Reads and merges the files (binary of either version, or text) into slots of {@code slotNanos}. */
    public static SlotProfile read(List<Path> files, long slotNanos) throws IOException {
        Builder b = builder(slotNanos);
        for (Path f : files) {
            b.read(f);
        }
        return b.build();
    }

    /** The profile's join points in slots of {@code slotNanos}, exactly as the generator slices it. */
    public static SlotProfile of(Profile profile, long slotNanos) {
        Builder b = builder(slotNanos);
        b.add(profile);
        b.recordedRegions = profile.recordedRegions();
        return b.build();
    }

    public static Builder builder(long slotNanos) {
        return new Builder(slotNanos);
    }

    public long slotNanos() {
        return slotNanos;
    }

    public long joinPoints() {
        return joinPoints;
    }

    public String signature(int id) {
        return signatures[id];
    }

    public int signatureCount() {
        return signatures.length;
    }

    /** Distinct (caller, callee) pairs, ids in the order of their first join point. */
    public int pairs() {
        return pairCaller.length;
    }

    public String caller(int pair) {
        return signatures[pairCaller[pair]];
    }

    public String callee(int pair) {
        return signatures[pairCallee[pair]];
    }

    int callerId(int pair) {
        return pairCaller[pair];
    }

    int calleeId(int pair) {
        return pairCallee[pair];
    }

    public long occurrences(int pair) {
        return occurrences[pair];
    }

    public int timelines() {
        return timelineNames.length;
    }

    public String timelineName(int timeline) {
        return timelineNames[timeline];
    }

    /**
     * The time of the timeline's first join point, where its slot 0 starts; for a request span,
     * the later of the span's start and the thread's first join point (its slot 0 starts at
     * {@link #timelineOrigin}).
     */
    public long timelineStart(int timeline) {
        return timelineStart[timeline];
    }

    /** The time of the timeline's last join point; for a request span, the earlier of its end and that. */
    public long timelineEnd(int timeline) {
        return timelineEnd[timeline];
    }

    /** Where the timeline's slot 0 starts: its start, or for a request span up to a slot before it. */
    public long timelineOrigin(int timeline) {
        return timelineOrigin[timeline];
    }

    /** The request spans kept as timelines; -1 when no source recorded spans. */
    public int requestSpans() {
        return requestSpans;
    }

    /** Timelines of sources with request spans that had no join point inside one, left out. */
    public int timelinesOutsideRequests() {
        return timelinesOutsideRequests;
    }

    /** Join points of sources with request spans that lay outside every span, left out. */
    public long joinPointsOutsideRequests() {
        return joinPointsOutsideRequests;
    }

    /** The timeline's first slot; {@code firstSlot(timelines())} is {@link #slots()}. */
    public int firstSlot(int timeline) {
        return timelineFirstSlot[timeline];
    }

    /** All timelines' slots, empty ones included. */
    public int slots() {
        return slotStart.length - 1;
    }

    /** The slot's first entry; {@code entryStart(slot + 1)} ends it. */
    public int entryStart(int slot) {
        return slotStart[slot];
    }

    public int entries() {
        return entryPair.length;
    }

    public int entryPair(int entry) {
        return entryPair[entry];
    }

    public int entryCount(int entry) {
        return entryCount[entry];
    }

    /** Nanoseconds from the slot's start to the pair's first occurrence in it. */
    public int entryFirst(int entry) {
        return entryFirst[entry];
    }

    /** Nanoseconds from the slot's start to the pair's last occurrence in it. */
    public int entryLast(int entry) {
        return entryLast[entry];
    }

    /** The calls the profiler found inside monitors, or null when no source recorded them. */
    public SynchronizedRegions recordedRegions() {
        return recordedRegions;
    }

    /** What the reader wants the user to know, e.g. that a profile hit a size limit. */
    public List<String> warnings() {
        return warnings;
    }

    /** Thrown by a version 1 stream whose thread goes back in time; the file is then summarized from memory. */
    private static final class OutOfOrder extends RuntimeException {
        private static final long serialVersionUID = 1L;

        OutOfOrder() {
            super(null, null, false, false);
        }
    }

    /**
     * Collects join points or slot summaries from any number of sources into slots of one length.
     * Not thread-safe.
     */
    public static final class Builder {
        private final long slotNanos;
        private final Map<String, Integer> ids = new HashMap<>();
        private final List<String> signatures = new ArrayList<>();
        private final LongIntMap pairIds = new LongIntMap(1024);
        private int[] pairCaller = new int[256];
        private int[] pairCallee = new int[256];
        private int pairCount;
        private final Map<String, Timeline> timelines = new LinkedHashMap<>();
        private final List<String> warnings = new ArrayList<>();
        private final Set<String> callsInMonitor = new HashSet<>();
        private boolean monitorsRecorded;
        private SynchronizedRegions recordedRegions;
        private String source = "profile";
        private int sourceIndex;
        private long lastThread = Long.MIN_VALUE;
        private Timeline last;
        private int requestSpans = -1;
        private int timelinesOutsideRequests;
        private long joinPointsOutsideRequests;

        private Builder(long slotNanos) {
            if (slotNanos < 1 || slotNanos > SlotProfileWriter.MAX_SLOT_NANOS) {
                throw new IllegalArgumentException("slots of " + slotNanos + " ns: a slot must be 1 ns to "
                        + SlotProfileWriter.MAX_SLOT_NANOS + " ns (about 2.1 s)");
            }
            this.slotNanos = slotNanos;
        }

        /** Starts the join points of another profile (a file name, for the timeline names). */
        public Builder source(String name) {
            source = name;
            sourceIndex++;
            last = null;
            return this;
        }

        /** Reads one file (binary of either version, or text) as its own source. */
        public Builder read(Path file) throws IOException {
            source(file.toString());
            int version = BinaryProfileReader.version(file);
            if (version < 0) {
                readInMemory(file);
                return this;
            }
            if (version == BinaryProfileFormat.VERSION_SLOTS) {
                int mark = sourceIndex;
                Map<Integer, long[]> spans = new HashMap<>();
                BinaryProfileReader.Summary s = readSlots(file, spans, false);
                if (s.meta().containsKey(BinaryProfileFormat.REQUEST_SPANS)) {
                    // the record that says spans count comes at the end: read again, within them
                    timelines.values().removeIf(t -> t.source == mark);
                    source(file.toString());
                    readSlots(file, spans, true);
                }
                note(file, s.meta());
                return this;
            }
            int mark = sourceIndex;
            try {
                note(file, readJoinPoints(file).meta());
            } catch (OutOfOrder e) {
                // a thread went back in time (never in the agent's files): sort the file in memory
                timelines.values().removeIf(t -> t.source == mark);
                source(file.toString());
                readInMemory(file);
            }
            return this;
        }

        private void readInMemory(Path file) throws IOException {
            Profile.Builder p = Profile.builder();
            p.read(file);
            warnings.addAll(p.warnings());
            addTimelines(p.build());
        }

        /** The warnings and the record of calls in monitors that a binary file's meta records carry. */
        private void note(Path file, Map<String, String> meta) {
            String limit = meta.get("limit");
            if (limit != null) {
                warnings.add(file + " is partial: the profiler stopped recording because " + limit);
            }
            String clamped = meta.get("clamped");
            if (clamped != null) {
                warnings.add(file + ": " + clamped);
            }
            if (meta.containsKey(BinaryProfileFormat.MONITORS_RECORDED)) {
                monitorsRecorded = true;
                meta.forEach((k, v) -> {
                    if (k.startsWith(BinaryProfileFormat.IN_MONITOR_PREFIX)) {
                        callsInMonitor.add(v);
                    }
                });
            }
        }

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

        /** Adds every join point of an in-memory profile, each of its timelines a timeline here. */
        public Builder add(Profile profile) {
            source("memory");
            addTimelines(profile);
            return this;
        }

        /**
         * A join point, with ids from {@link #intern}. A thread's join points must come in time
         * order (what a clock gives); the first starts its timeline.
         */
        public void joinPoint(long timeNanos, long threadId, int callerId, int calleeId) {
            Timeline t = timeline(threadId);
            if (timeNanos < t.end) {
                throw new OutOfOrder();
            }
            if (t.end == Long.MIN_VALUE) {
                t.start = timeNanos;
            }
            t.end = timeNanos;
            long rel = timeNanos - t.start;
            long slot = rel / slotNanos;
            int offset = (int) (rel - slot * slotNanos);
            t.add(slot, pair(callerId, calleeId), 1, offset, offset);
        }

        private Timeline timeline(long threadId) {
            Timeline t = last;
            if (t == null || threadId != lastThread) {
                String key = sourceIndex + " " + threadId;
                t = timelines.get(key);
                if (t == null) {
                    t = new Timeline(source + " thread " + threadId, sourceIndex, slotNanos);
                    timelines.put(key, t);
                }
                last = t;
                lastThread = threadId;
            }
            return t;
        }

        private int pair(int callerId, int calleeId) {
            long key = LongIntMap.key(callerId, calleeId);
            int p = pairIds.get(key);
            if (p < 0) {
                p = pairCount++;
                pairIds.put(key, p);
                if (p == pairCaller.length) {
                    pairCaller = Arrays.copyOf(pairCaller, p * 2);
                    pairCallee = Arrays.copyOf(pairCallee, p * 2);
                }
                pairCaller[p] = callerId;
                pairCallee[p] = calleeId;
            }
            return p;
        }

        private void addTimelines(Profile profile) {
            int[] map = new int[profile.signatureCount()];
            for (int id = 0; id < map.length; id++) {
                map[id] = intern(profile.signature(id));
            }
            for (int tl = 0; tl < profile.timelineCount(); tl++) {
                int from = profile.timelineStart(tl);
                int to = profile.timelineStart(tl + 1);
                if (from == to) {
                    continue;
                }
                Timeline t = new Timeline(profile.timelineName(tl), sourceIndex, slotNanos);
                timelines.put(sourceIndex + " #" + tl, t);
                t.start = profile.time(from);
                for (int k = from; k < to; k++) {
                    long rel = profile.time(k) - t.start;
                    long slot = rel / slotNanos;
                    int offset = (int) (rel - slot * slotNanos);
                    t.add(slot, pair(map[profile.callerId(k)], map[profile.calleeId(k)]), 1, offset, offset);
                }
                t.end = profile.time(to - 1);
            }
            last = null;
            if (profile.recordedRegions() != null) {
                recordedRegions = recordedRegions == null ? profile.recordedRegions()
                        : SynchronizedRegions.either(recordedRegions, profile.recordedRegions());
            }
        }

        private BinaryProfileReader.Summary readJoinPoints(Path file) throws IOException {
            int[][] map = {new int[64]};
            BinaryProfileReader.Summary s = BinaryProfileReader.readIds(file, new BinaryProfileReader.Target() {
                @Override
                public void signature(int id, String text) {
                    if (id == map[0].length) {
                        map[0] = Arrays.copyOf(map[0], id * 2);
                    }
                    map[0][id] = intern(text);
                }

                @Override
                public void joinPoint(long time, long thread, int caller, int callee) {
                    Builder.this.joinPoint(time, thread, map[0][caller], map[0][callee]);
                }
            });
            last = null;
            return s;
        }

        /**
         * @param spans per timeline index of the file, its spans as start, end pairs: filled when
         *     {@code withinSpans} is false, used when it is true
         */
        private BinaryProfileReader.Summary readSlots(Path file, Map<Integer, long[]> spans, boolean withinSpans)
                throws IOException {
            List<Timeline> fileTimelines = new ArrayList<>();
            List<Requests> fileThreads = new ArrayList<>();
            int[][] sigs = {new int[64]};
            int[][] pairs = {new int[64]};
            long[] base = {0};
            BinaryProfileReader.Summary summary = BinaryProfileReader.readSlots(file, new BinaryProfileReader.SlotTarget() {
                @Override
                public void slotNanos(long slotNanosOfFile) {
                    if (slotNanos % slotNanosOfFile != 0) {
                        throw new IllegalArgumentException(file + " has slots of " + Durations.text(slotNanosOfFile)
                                + " (the profiler's slot=): the target interval (times any slowdown) must be a multiple"
                                + " of it, not " + Durations.text(slotNanos));
                    }
                    base[0] = slotNanosOfFile;
                }

                @Override
                public void signature(int id, String text) {
                    if (id == sigs[0].length) {
                        sigs[0] = Arrays.copyOf(sigs[0], id * 2);
                    }
                    sigs[0][id] = intern(text);
                }

                @Override
                public void pair(int id, int callerId, int calleeId) {
                    if (id == pairs[0].length) {
                        pairs[0] = Arrays.copyOf(pairs[0], id * 2);
                    }
                    pairs[0][id] = Builder.this.pair(sigs[0][callerId], sigs[0][calleeId]);
                }

                @Override
                public void timeline(int index, long threadId, long startNanos) {
                    if (withinSpans) {
                        fileThreads.add(new Requests(source + " thread " + threadId, startNanos,
                                spans.getOrDefault(index, new long[0])));
                        return;
                    }
                    Timeline t = new Timeline(source + " thread " + threadId, sourceIndex, slotNanos);
                    t.start = startNanos;
                    timelines.put(sourceIndex + " #" + index, t);
                    fileTimelines.add(t);
                }

                @Override
                public void slot(int timeline, long slot, int entries, int[] pairIds, int[] counts, int[] first,
                        int[] lastOffsets) {
                    if (withinSpans) {
                        fileThreads.get(timeline).slot(slot * base[0], entries, pairIds, counts, first, lastOffsets,
                                pairs[0]);
                        return;
                    }
                    Timeline t = fileTimelines.get(timeline);
                    long from = slot * base[0];
                    long merged = from / slotNanos;
                    int shift = (int) (from - merged * slotNanos);
                    for (int e = 0; e < entries; e++) {
                        t.add(merged, pairs[0][pairIds[e]], counts[e], shift + first[e], shift + lastOffsets[e]);
                        t.end = Math.max(t.end, t.start + from + lastOffsets[e]);
                    }
                }

                @Override
                public void span(int timeline, long startNanos, long endNanos) {
                    if (!withinSpans) {
                        long[] s = spans.getOrDefault(timeline, new long[0]);
                        s = Arrays.copyOf(s, s.length + 2);
                        s[s.length - 2] = startNanos;
                        s[s.length - 1] = endNanos;
                        spans.put(timeline, s);
                    }
                }
            });
            if (withinSpans) {
                requestSpans = Math.max(requestSpans, 0);
                for (Requests r : fileThreads) {
                    r.finish();
                }
            }
            last = null;
            return summary;
        }

        /**
         * One thread of a file with request spans, read within them: each base-slot entry goes to the
         * first span it overlaps, clamped into it, and into that span's timeline; the rest is counted
         * as outside any request.
         */
        private final class Requests {
            final String name;
            final long start;
            final long[] spans;
            final Timeline[] requests;
            long end = Long.MIN_VALUE;
            int cursor;

            Requests(String name, long start, long[] spans) {
                this.name = name;
                this.start = start;
                this.spans = spans;
                this.requests = new Timeline[spans.length / 2];
            }

            /** A base slot's entries; {@code from} is its start from the thread's start. */
            void slot(long from, int entries, int[] pairIds, int[] counts, int[] first, int[] last, int[] pairOf) {
                long slotStart = start + from;
                while (cursor < requests.length && spans[2 * cursor + 1] < slotStart) {
                    cursor++;
                }
                for (int e = 0; e < entries; e++) {
                    long f = slotStart + first[e];
                    long l = slotStart + last[e];
                    end = Math.max(end, l);
                    int k = cursor;
                    while (k < requests.length && spans[2 * k + 1] < f) {
                        k++;
                    }
                    if (k == requests.length || spans[2 * k] > l) {
                        joinPointsOutsideRequests += counts[e];
                        continue;
                    }
                    Timeline w = request(k);
                    long rel = slotStart - w.origin;
                    long merged = rel / slotNanos;
                    long mergedStart = w.origin + merged * slotNanos;
                    w.add(merged, pairOf[pairIds[e]], counts[e], (int) (Math.max(f, spans[2 * k]) - mergedStart),
                            (int) (Math.min(l, spans[2 * k + 1]) - mergedStart));
                }
            }

            /** Request k's timeline: its slots are the thread's slots from the one the span starts in. */
            private Timeline request(int k) {
                Timeline w = requests[k];
                if (w == null) {
                    long t = slotNanos;
                    w = new Timeline(name + " request " + (k + 1), sourceIndex, t);
                    w.request = true;
                    w.start = Math.max(spans[2 * k], start);
                    w.origin = start + (w.start - start) / t * t;
                    requests[k] = w;
                }
                return w;
            }

            /** The timelines of the requests with a join point, in order; the thread counted if none. */
            void finish() {
                boolean any = false;
                for (int k = 0; k < requests.length; k++) {
                    Timeline w = requests[k];
                    if (w != null) {
                        w.end = Math.min(spans[2 * k + 1], end);
                        w.spanLastSlot = (int) ((w.end - w.origin) / slotNanos);
                        timelines.put(sourceIndex + " #" + name + " " + k, w);
                        any = true;
                    }
                }
                if (!any && end != Long.MIN_VALUE) {
                    timelinesOutsideRequests++;
                }
            }
        }

        /** The summary, the sources' timelines in the order they were first seen. */
        public SlotProfile build() {
            List<Timeline> out = new ArrayList<>(timelines.values());
            int spans = requestSpans;
            for (Timeline t : out) {
                t.finish();
                spans += t.request ? 1 : 0;
            }
            // a thread whose timeline record came before a limit stopped the recording may have no slot
            out.removeIf(t -> t.size == 0);
            int tls = out.size();
            String[] names = new String[tls];
            long[] starts = new long[tls];
            long[] ends = new long[tls];
            long[] origins = new long[tls];
            int[] firstSlot = new int[tls + 1];
            long slots = 0;
            int entries = 0;
            int k = 0;
            for (Timeline t : out) {
                names[k] = t.name;
                starts[k] = t.start;
                ends[k] = t.end;
                origins[k] = t.origin();
                firstSlot[k++] = (int) slots;
                slots += t.slotCount();
                entries = Math.addExact(entries, t.size);
                if (slots > MAX_SLOTS) {
                    throw new IllegalArgumentException("slots of " + Durations.text(slotNanos) + " cut the profile into more than "
                            + MAX_SLOTS + " slots; use a longer interval");
                }
            }
            firstSlot[tls] = (int) slots;
            int[] slotStart = new int[(int) slots + 1];
            int[] pair = new int[entries];
            int[] count = new int[entries];
            int[] first = new int[entries];
            int[] lastOff = new int[entries];
            long[] occ = new long[pairCount];
            int at = 0;
            k = 0;
            for (Timeline t : out) {
                int base = firstSlot[k++];
                for (int e = 0; e < t.size; e++) {
                    slotStart[base + t.slot[e] + 1]++;
                    occ[t.pair[e]] += t.count[e];
                }
                System.arraycopy(t.pair, 0, pair, at, t.size);
                System.arraycopy(t.count, 0, count, at, t.size);
                System.arraycopy(t.first, 0, first, at, t.size);
                System.arraycopy(t.last, 0, lastOff, at, t.size);
                at += t.size;
                t.release();
            }
            for (int s = 0; s < slots; s++) {
                slotStart[s + 1] += slotStart[s];
            }
            // pairs that no kept timeline uses (a source read again in memory, or only outside request spans) are
            // dropped, in order
            int[] renumber = new int[pairCount];
            int kept = 0;
            for (int p = 0; p < pairCount; p++) {
                renumber[p] = occ[p] > 0 ? kept++ : -1;
            }
            int[] callers = new int[kept];
            int[] callees = new int[kept];
            long[] occurrences = new long[kept];
            long joinPoints = 0;
            for (int p = 0; p < pairCount; p++) {
                int q = renumber[p];
                if (q >= 0) {
                    callers[q] = pairCaller[p];
                    callees[q] = pairCallee[p];
                    occurrences[q] = occ[p];
                    joinPoints += occ[p];
                }
            }
            if (kept != pairCount) {
                for (int e = 0; e < entries; e++) {
                    pair[e] = renumber[pair[e]];
                }
            }
            SynchronizedRegions regions = recordedRegions;
            if (monitorsRecorded) {
                SynchronizedRegions fromFiles = SynchronizedRegions.recorded(callsInMonitor);
                regions = regions == null ? fromFiles : SynchronizedRegions.either(regions, fromFiles);
            }
            return new SlotProfile(slotNanos, signatures.toArray(new String[0]), callers, callees, occurrences, names,
                    starts, ends, origins, firstSlot, slotStart, pair, count, first, lastOff, joinPoints, regions, warnings,
                    spans, timelinesOutsideRequests, joinPointsOutsideRequests);
        }
    }

    /** One timeline's entries, in slot order, while it is being built. */
    private static final class Timeline implements SlotAccumulator.Sink {
        final String name;
        final int source;
        final long slotNanos;
        final SlotAccumulator current = new SlotAccumulator();
        long start;
        long end = Long.MIN_VALUE;
        /** Where slot 0 starts when not at {@link #start} (a request span's timeline). */
        long origin = Long.MIN_VALUE;
        /** A request span's timeline, and its last slot however empty. */
        boolean request;
        int spanLastSlot = -1;
        int[] slot = new int[16];
        int[] pair = new int[16];
        int[] count = new int[16];
        int[] first = new int[16];
        int[] last = new int[16];
        int size;
        private int lastSlot = -1;

        Timeline(String name, int source, long slotNanos) {
            this.name = name;
            this.source = source;
            this.slotNanos = slotNanos;
        }

        void add(long s, int p, int c, int firstOffset, int lastOffset) {
            if (s >= MAX_SLOTS) {
                throw new IllegalArgumentException("slots of " + Durations.text(slotNanos) + " cut " + name
                        + " into more than " + MAX_SLOTS + " slots; use a longer interval");
            }
            try {
                current.add(s, p, c, firstOffset, lastOffset, this);
            } catch (IOException e) {
                throw new AssertionError(e); // this sink does no I/O
            }
        }

        @Override
        public void slot(long s, int entries, int[] pairs, int[] counts, int[] firsts, int[] lasts) {
            grow(size + entries);
            Arrays.fill(slot, size, size + entries, (int) s);
            System.arraycopy(pairs, 0, pair, size, entries);
            System.arraycopy(counts, 0, count, size, entries);
            System.arraycopy(firsts, 0, first, size, entries);
            System.arraycopy(lasts, 0, last, size, entries);
            size += entries;
            lastSlot = (int) s;
        }

        private void grow(int entries) {
            if (entries > slot.length) {
                int n = Math.max(entries, slot.length * 2);
                slot = Arrays.copyOf(slot, n);
                pair = Arrays.copyOf(pair, n);
                count = Arrays.copyOf(count, n);
                first = Arrays.copyOf(first, n);
                last = Arrays.copyOf(last, n);
            }
        }

        void finish() {
            try {
                current.flush(this);
            } catch (IOException e) {
                throw new AssertionError(e); // this sink does no I/O
            }
        }

        long slotCount() {
            return Math.max(lastSlot, spanLastSlot) + 1L;
        }

        long origin() {
            return origin == Long.MIN_VALUE ? start : origin;
        }

        void release() {
            slot = pair = count = first = last = null;
        }
    }
}
