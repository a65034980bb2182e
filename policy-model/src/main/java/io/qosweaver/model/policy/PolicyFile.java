package io.qosweaver.model.policy;

import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.model.pointcut.PointcutParser;
import io.qosweaver.model.pointcut.PointcutSyntaxException;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A parsed and validated policy file (format: agent/README.md). It is read from the YAML node tree
 * rather than from plain maps so that every value keeps its line: each error the agent reports,
 * including those the scheduler raises later about a parameter, points at a line of this file.
 */
public final class PolicyFile {

    /**
     * A task class: entered by the execution of an entry method, by a servlet path, or by what a
     * request is; exactly one of {@code entry}, {@code servletPath} and {@code request} is set.
     */
    public record TaskClassDef(String name, String entryText, Pointcut entry, String servletPath,
            RequestSelector request, Map<String, String> attributes, String location) {}

    /** A control-point pointcut: its text, parsed, and where it is in the file. */
    public record ControlPointDef(String text, Pointcut pointcut, String location) {}

    /**
     * A progress-point pointcut (the deadlock-aware policy's progress counters, paper 3.4 and
     * Fig. 12): a call join point, woven as {@code QoS.progressPoint()} before the call.
     */
    public record ProgressPointDef(String text, Pointcut pointcut, String location) {}

    /**
     * A bulkhead (the dynamic-weaving paper's concurrency policy, as a woven aspect): at most
     * {@code limit} executions of the selected methods at once; a caller beyond waits, at most
     * {@code queue} of them and at most {@code timeoutNanos}; beyond either it is refused with a
     * {@code RejectedExecutionException} thrown from the call.
     *
     * @param limit threads, or a multiple of the cores when {@code perCore}
     */
    public record BulkheadDef(String text, Pointcut pointcut, double limit, boolean perCore, int queue,
            long timeoutNanos, String location) {}

    /** A synchronization aspect: the selected executions run one at a time. */
    public record SynchronizeDef(String text, Pointcut pointcut, String location) {}

    /**
     * A semaphore aspect (the paper's SynchSem, Fig. 9): a thread takes a permit before a {@code
     * waitAt} execution (blocking while there is none, at most {@code maxWaitNanos} when above 0),
     * and a {@code signal} execution adds one when it returns; {@code initial} permits at start.
     */
    public record SemaphoreDef(String name, String waitText, Pointcut waitAt, String signalText, Pointcut signalAt,
            int initial, long maxWaitNanos, String location) {}

    /** What a time-out aspect does to an execution still running after its bound. */
    public enum TimeoutAction {
        /** Interrupt the executing thread, once, if the execution is still running at the bound. */
        INTERRUPT,
        /** When the execution returns normally after the bound, throw instead of returning. */
        FAIL
    }

    /** A time-out aspect: an execution the pointcut selects is bounded to {@code afterNanos}. */
    public record TimeoutDef(String text, Pointcut pointcut, long afterNanos, TimeoutAction action, String location) {}

    /** A thread count of a server's pool: whole, or a multiple of the cores when {@code perCore}. */
    public record ThreadCount(double value, boolean perCore) {
        /** The count on a machine of {@code cores} cores: at least 1 when per core. */
        public int resolve(int cores) {
            return perCore ? Math.max(1, (int) Math.round(value * cores)) : (int) value;
        }

        @Override
        public String toString() {
            return perCore ? (value == Math.rint(value) ? (long) value + "x" : value + "x") : Long.toString((long) value);
        }
    }

    /**
     * The server's own thread pool: {@code server} is {@code jetty}, {@code tomcat} or {@code any};
     * {@code min} and {@code idleTimeoutMillis} are null or 0 when the file leaves them as the
     * server has them.
     */
    public record ThreadPoolDef(String server, ThreadCount min, ThreadCount max, int idleTimeoutMillis,
            String location) {}


    /**
     * A user event of the trace ({@code trace: events:}): a slice on the thread's {@code user
     * events} track for each execution of a method the pointcut selects, named by the method.
     */
    public record TraceEventDef(String text, Pointcut pointcut, String location) {}

    private static final Set<String> TOP_KEYS = Set.of("failOpen", "taskClasses", "controlPoints", "progressPoints",
            "policy", "matchCheckSeconds", "aspects", "trace");
    private static final Set<String> ASPECT_KEYS = Set.of("bulkheads", "synchronize", "semaphores", "timeouts",
            "threadPools");
    private static final Set<String> TIMEOUT_KEYS = Set.of("pointcut", "after", "action");
    private static final Set<String> THREAD_POOL_KEYS = Set.of("server", "min", "max", "idleTimeout");
    private static final Set<String> SERVERS = Set.of("jetty", "tomcat", "any");
    private static final Set<String> SEMAPHORE_KEYS = Set.of("name", "wait", "signal", "initial", "maxWait");
    private static final Set<String> BULKHEAD_KEYS = Set.of("pointcut", "limit", "queue", "timeout");
    private static final Pattern FAIL_OPEN_LINE = Pattern.compile("(?m)^failOpen\\s*:\\s*true\\s*(#.*)?$");

    private final String file;
    private final boolean failOpen;
    private final int matchCheckSeconds;
    private final List<TaskClassDef> taskClasses;
    private final List<ControlPointDef> controlPoints;
    private final List<ProgressPointDef> progressPoints;
    private final String policyName;
    private final Map<String, String> policyParameters;
    private final Map<String, Integer> keyLines;
    private final List<BulkheadDef> bulkheads;
    private final List<SynchronizeDef> synchronizations;
    private final List<SemaphoreDef> semaphores;
    private final List<TimeoutDef> timeouts;
    private final List<ThreadPoolDef> threadPools;
    /** Set once by the reading, right after construction. */
    private List<TraceEventDef> traceEvents = List.of();

    private PolicyFile(String file, boolean failOpen, int matchCheckSeconds, List<TaskClassDef> taskClasses,
            List<ControlPointDef> controlPoints, List<ProgressPointDef> progressPoints, String policyName,
            Map<String, String> policyParameters, Map<String, Integer> keyLines, List<BulkheadDef> bulkheads,
            List<SynchronizeDef> synchronizations, List<SemaphoreDef> semaphores, List<TimeoutDef> timeouts,
            List<ThreadPoolDef> threadPools) {
        this.timeouts = List.copyOf(timeouts);
        this.threadPools = List.copyOf(threadPools);
        this.semaphores = List.copyOf(semaphores);
        this.bulkheads = List.copyOf(bulkheads);
        this.synchronizations = List.copyOf(synchronizations);
        this.file = file;
        this.failOpen = failOpen;
        this.matchCheckSeconds = matchCheckSeconds;
        this.taskClasses = List.copyOf(taskClasses);
        this.controlPoints = List.copyOf(controlPoints);
        this.progressPoints = List.copyOf(progressPoints);
        this.policyName = policyName;
        this.policyParameters = Map.copyOf(policyParameters);
        this.keyLines = Map.copyOf(keyLines);
    }

    public static PolicyFile load(Path path) throws PolicyFileException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new PolicyFileException(path.toString(), 0, 0, "cannot read the policy file: " + e);
        }
        return parse(path.toString(), text);
    }

    /**
     * Whether a file asks to fail open even though it could not be parsed: a best-effort look for
     * a top-level {@code failOpen: true} line, so that a YAML syntax error elsewhere still honours it.
     */
    public static boolean declaresFailOpen(Path path) {
        try {
            return FAIL_OPEN_LINE.matcher(Files.readString(path, StandardCharsets.UTF_8)).find();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    public static PolicyFile parse(String file, String text) throws PolicyFileException {
        return new Reading(file).read(new StringReader(text));
    }

    public String file() {
        return file;
    }

    public boolean failOpen() {
        return failOpen;
    }

    public int matchCheckSeconds() {
        return matchCheckSeconds;
    }

    public List<TaskClassDef> taskClasses() {
        return taskClasses;
    }

    public List<ControlPointDef> controlPoints() {
        return controlPoints;
    }

    /** Where {@code QoS.progressPoint()} is woven (empty when the file has none). */
    public List<ProgressPointDef> progressPoints() {
        return progressPoints;
    }

    /** The bulkheads of the {@code aspects:} section, in file order. */
    public List<BulkheadDef> bulkheads() {
        return bulkheads;
    }

    /** The semaphore aspects of the {@code aspects:} section, in file order. */
    public List<SemaphoreDef> semaphores() {
        return semaphores;
    }

    /** The synchronization aspects of the {@code aspects:} section, in file order. */
    /** The trace's user events ({@code trace: events:}); empty when the file has none. */
    public List<TraceEventDef> traceEvents() {
        return traceEvents;
    }

    public List<SynchronizeDef> synchronizations() {
        return synchronizations;
    }

    /** The time-out aspects of the {@code aspects:} section, in file order. */
    public List<TimeoutDef> timeouts() {
        return timeouts;
    }

    /** The server thread pools of the {@code aspects:} section, in file order (one per server at most). */
    public List<ThreadPoolDef> threadPools() {
        return threadPools;
    }

    public String policyName() {
        return policyName;
    }

    public Map<String, String> policyParameters() {
        return policyParameters;
    }

    /**
     * The line a scheduler configuration key ({@code policy.lowLimit}, {@code taskClasses.chart.importance})
     * came from: the key itself, else its closest enclosing key, else 0.
     */
    public int lineOf(String key) {
        String k = key == null ? "" : key;
        while (!k.isEmpty()) {
            Integer line = keyLines.get(k);
            if (line != null) {
                return line;
            }
            int dot = k.lastIndexOf('.');
            k = dot < 0 ? "" : k.substring(0, dot);
        }
        return 0;
    }

    /** Turns a scheduler's refusal into an error that points at the file. */
    public PolicyFileException configError(String key, String message) {
        return new PolicyFileException(file, lineOf(key), 0, message + (key == null ? "" : " (" + key + ")"));
    }

    /** One pass over the node tree; collects key lines as it goes. */
    private static final class Reading {
        private final String file;
        private final Map<String, Integer> keyLines = new HashMap<>();

        Reading(String file) {
            this.file = file;
        }

        PolicyFile read(Reader reader) throws PolicyFileException {
            Node root = YamlTree.compose(file, reader);
            if (root == null) {
                throw new PolicyFileException(file, 1, 0, "the policy file is empty");
            }
            MappingNode top = mapping(root, "the policy file");
            Map<String, NodeTuple> entries = entries(top, TOP_KEYS, "top-level");

            boolean failOpen = entries.containsKey("failOpen")
                    && bool(entries.get("failOpen").getValueNode(), "failOpen");
            int matchCheck = 30;
            if (entries.containsKey("matchCheckSeconds")) {
                matchCheck = positiveInt(entries.get("matchCheckSeconds").getValueNode(), "matchCheckSeconds");
            }

            NodeTuple tcTuple = require(entries, "taskClasses", top);
            keyLines.put("taskClasses", line(tcTuple.getKeyNode()));
            List<TaskClassDef> taskClasses = new ArrayList<>();
            Set<String> names = new HashSet<>();
            SequenceNode tcSeq = sequence(tcTuple.getValueNode(), "taskClasses");
            if (tcSeq.getValue().isEmpty()) {
                throw error(tcTuple.getValueNode(), "taskClasses is empty: name at least one task class");
            }
            for (Node item : tcSeq.getValue()) {
                TaskClassDef t = taskClass(item);
                if (!names.add(t.name())) {
                    throw error(item, "duplicate task class name '" + t.name() + "'");
                }
                taskClasses.add(t);
            }

            List<ControlPointDef> cps = new ArrayList<>();
            if (entries.containsKey("controlPoints")) {
                NodeTuple cpTuple = entries.get("controlPoints");
                keyLines.put("controlPoints", line(cpTuple.getKeyNode()));
                for (Node item : sequence(cpTuple.getValueNode(), "controlPoints").getValue()) {
                    ScalarNode s = scalar(item, "a control point");
                    Pointcut p = pointcut(s);
                    checkCallPointcut(p, s, "control point");
                    cps.add(new ControlPointDef(s.getValue(), p, file + ":" + line(s)));
                }
            }

            List<ProgressPointDef> pps = new ArrayList<>();
            if (entries.containsKey("progressPoints")) {
                NodeTuple ppTuple = entries.get("progressPoints");
                keyLines.put("progressPoints", line(ppTuple.getKeyNode()));
                for (Node item : sequence(ppTuple.getValueNode(), "progressPoints").getValue()) {
                    ScalarNode s = scalar(item, "a progress point");
                    Pointcut p = pointcut(s);
                    checkCallPointcut(p, s, "progress point");
                    pps.add(new ProgressPointDef(s.getValue(), p, file + ":" + line(s)));
                }
            }

            NodeTuple polTuple = require(entries, "policy", top);
            keyLines.put("policy", line(polTuple.getKeyNode()));
            MappingNode pol = mapping(polTuple.getValueNode(), "policy");
            String policyName = null;
            Map<String, String> params = new LinkedHashMap<>();
            for (NodeTuple t : pol.getValue()) {
                String k = key(t);
                keyLines.put("policy." + k, line(t.getKeyNode()));
                String v = scalar(t.getValueNode(), "policy." + k).getValue();
                if (k.equals("name")) {
                    policyName = v;
                } else {
                    params.put(k, v);
                }
            }
            if (policyName == null || policyName.isBlank()) {
                throw error(polTuple.getKeyNode(), "policy has no 'name' (for example name: importance)");
            }
            List<BulkheadDef> bulkheads = new ArrayList<>();
            List<SynchronizeDef> syncs = new ArrayList<>();
            List<SemaphoreDef> semaphores = new ArrayList<>();
            List<TimeoutDef> timeouts = new ArrayList<>();
            List<ThreadPoolDef> pools = new ArrayList<>();
            if (entries.containsKey("aspects")) {
                Map<String, NodeTuple> aspects = entries(mapping(entries.get("aspects").getValueNode(), "aspects"),
                        ASPECT_KEYS, "aspects");
                if (aspects.containsKey("bulkheads")) {
                    for (Node item : sequence(aspects.get("bulkheads").getValueNode(), "aspects.bulkheads").getValue()) {
                        bulkheads.add(bulkhead(item));
                    }
                }
                if (aspects.containsKey("synchronize")) {
                    for (Node item : sequence(aspects.get("synchronize").getValueNode(), "aspects.synchronize").getValue()) {
                        ScalarNode sn = scalar(item, "a synchronized pointcut");
                        syncs.add(new SynchronizeDef(sn.getValue(), executionPointcut(sn, "a synchronize aspect"),
                                file + ":" + line(sn)));
                    }
                }
                if (aspects.containsKey("semaphores")) {
                    Set<String> semaphoreNames = new HashSet<>();
                    for (Node item : sequence(aspects.get("semaphores").getValueNode(), "aspects.semaphores").getValue()) {
                        SemaphoreDef d = semaphore(item);
                        if (!semaphoreNames.add(d.name())) {
                            throw error(item, "duplicate semaphore name '" + d.name() + "'");
                        }
                        semaphores.add(d);
                    }
                }
                if (aspects.containsKey("timeouts")) {
                    for (Node item : sequence(aspects.get("timeouts").getValueNode(), "aspects.timeouts").getValue()) {
                        timeouts.add(timeout(item));
                    }
                }
                if (aspects.containsKey("threadPools")) {
                    for (Node item : sequence(aspects.get("threadPools").getValueNode(), "aspects.threadPools")
                            .getValue()) {
                        ThreadPoolDef d = threadPool(item);
                        for (ThreadPoolDef o : pools) {
                            if (o.server().equals(d.server()) || o.server().equals("any") || d.server().equals("any")) {
                                throw error(item, "threadPools.server: '" + d.server() + "' overlaps the pool of '"
                                        + o.server() + "' (" + o.location() + "); one entry per server, and 'any'"
                                        + " alone");
                            }
                        }
                        pools.add(d);
                    }
                }
            }
            PolicyFile read = new PolicyFile(file, failOpen, matchCheck, taskClasses, cps, pps, policyName, params, keyLines,
                    bulkheads, syncs, semaphores, timeouts, pools);
            read.traceEvents = traceEvents(entries);
            return read;
        }

        private TimeoutDef timeout(Node item) throws PolicyFileException {
            MappingNode m = mapping(item, "a time-out");
            Map<String, NodeTuple> e = entries(m, TIMEOUT_KEYS, "timeouts");
            ScalarNode pc = scalar(require(e, "pointcut", m).getValueNode(), "a time-out's pointcut");
            Pointcut p = executionPointcut(pc, "a time-out");
            long after = durationNanos(scalar(require(e, "after", m).getValueNode(), "timeouts.after"));
            TimeoutAction action = TimeoutAction.INTERRUPT;
            if (e.containsKey("action")) {
                ScalarNode a = scalar(e.get("action").getValueNode(), "timeouts.action");
                switch (a.getValue()) {
                    case "interrupt" -> action = TimeoutAction.INTERRUPT;
                    case "fail" -> action = TimeoutAction.FAIL;
                    default -> throw error(a, "timeouts.action is interrupt (the running thread, once) or fail (the"
                            + " late return throws), not '" + a.getValue() + "'");
                }
            }
            return new TimeoutDef(pc.getValue(), p, after, action, file + ":" + line(pc));
        }

        private ThreadPoolDef threadPool(Node item) throws PolicyFileException {
            MappingNode m = mapping(item, "a thread pool");
            Map<String, NodeTuple> e = entries(m, THREAD_POOL_KEYS, "threadPools");
            ScalarNode server = scalar(require(e, "server", m).getValueNode(), "threadPools.server");
            if (!SERVERS.contains(server.getValue())) {
                throw error(server, "threadPools.server is jetty, tomcat or any, not '" + server.getValue() + "'");
            }
            ThreadCount max = threadCount(scalar(require(e, "max", m).getValueNode(), "threadPools.max"), "max");
            ThreadCount min = null;
            if (e.containsKey("min")) {
                ScalarNode n = scalar(e.get("min").getValueNode(), "threadPools.min");
                min = threadCount(n, "min");
                int cores = Runtime.getRuntime().availableProcessors();
                if (min.resolve(cores) > max.resolve(cores)) {
                    throw error(n, "threadPools.min " + min + " is above max " + max
                            + (min.perCore() || max.perCore() ? " on " + cores + " cores" : ""));
                }
            }
            int idle = 0;
            if (e.containsKey("idleTimeout")) {
                ScalarNode n = scalar(e.get("idleTimeout").getValueNode(), "threadPools.idleTimeout");
                long ms = durationNanos(n) / 1_000_000L;
                if (ms > Integer.MAX_VALUE) {
                    throw error(n, "threadPools.idleTimeout is at most " + Integer.MAX_VALUE + "ms, not '"
                            + n.getValue() + "'");
                }
                idle = (int) ms;
            }
            return new ThreadPoolDef(server.getValue(), min, max, idle, file + ":" + line(m));
        }

        /** {@code 16}, or a multiple of the cores ({@code 2x}); {@code min} may be 0. */
        private ThreadCount threadCount(ScalarNode n, String key) throws PolicyFileException {
            String v = n.getValue().strip();
            boolean perCore = v.endsWith("x");
            double d;
            try {
                d = Double.parseDouble(perCore ? v.substring(0, v.length() - 1) : v);
            } catch (NumberFormatException ex) {
                d = -1;
            }
            boolean zeroOk = key.equals("min") && !perCore;
            if (!(d > 0 || zeroOk && d == 0) || (!perCore && (d != Math.rint(d) || d > Integer.MAX_VALUE))
                    || perCore && d > 1_000_000) {
                throw error(n, "threadPools." + key + " is a whole number of threads (16) or a multiple of the cores"
                        + " (2x), above 0" + (zeroOk ? " (min may be 0)" : "") + "; not '" + v + "'");
            }
            return new ThreadCount(d, perCore);
        }

        /** {@code trace: {events: [POINTCUT, ...]}}: execution pointcuts only. */
        private List<TraceEventDef> traceEvents(Map<String, NodeTuple> top) throws PolicyFileException {
            if (!top.containsKey("trace")) {
                return List.of();
            }
            NodeTuple tuple = top.get("trace");
            keyLines.put("trace", line(tuple.getKeyNode()));
            Map<String, NodeTuple> trace = entries(mapping(tuple.getValueNode(), "trace"), Set.of("events"), "trace");
            List<TraceEventDef> out = new ArrayList<>();
            if (trace.containsKey("events")) {
                keyLines.put("trace.events", line(trace.get("events").getKeyNode()));
                for (Node item : sequence(trace.get("events").getValueNode(), "trace.events").getValue()) {
                    ScalarNode s = scalar(item, "a trace event");
                    out.add(new TraceEventDef(s.getValue(), executionPointcut(s, "trace.events"), file + ":" + line(s)));
                }
            }
            return List.copyOf(out);
        }

        private SemaphoreDef semaphore(Node item) throws PolicyFileException {
            MappingNode m = mapping(item, "a semaphore");
            Map<String, NodeTuple> e = entries(m, SEMAPHORE_KEYS, "semaphore");
            String name = scalar(require(e, "name", m).getValueNode(), "a semaphore's name").getValue();
            ScalarNode w = scalar(require(e, "wait", m).getValueNode(), "a semaphore's wait");
            ScalarNode sig = scalar(require(e, "signal", m).getValueNode(), "a semaphore's signal");
            int initial = e.containsKey("initial") ? nonNegativeInt(e.get("initial").getValueNode(), "initial") : 0;
            long maxWait = e.containsKey("maxWait") ? durationNanos(scalar(e.get("maxWait").getValueNode(), "maxWait")) : 0;
            return new SemaphoreDef(name, w.getValue(), executionPointcut(w, "a semaphore's wait"), sig.getValue(),
                    executionPointcut(sig, "a semaphore's signal"), initial, maxWait, file + ":" + line(m));
        }

        private BulkheadDef bulkhead(Node item) throws PolicyFileException {
            MappingNode m = mapping(item, "a bulkhead");
            Map<String, NodeTuple> e = entries(m, BULKHEAD_KEYS, "bulkhead");
            ScalarNode pc = scalar(require(e, "pointcut", m).getValueNode(), "a bulkhead's pointcut");
            Pointcut p = executionPointcut(pc, "a bulkhead");
            ScalarNode limitNode = scalar(require(e, "limit", m).getValueNode(), "limit");
            String lv = limitNode.getValue().strip();
            boolean perCore = lv.endsWith("x");
            double limit;
            try {
                limit = Double.parseDouble(perCore ? lv.substring(0, lv.length() - 1) : lv);
            } catch (NumberFormatException ex) {
                limit = -1;
            }
            if (!(limit > 0) || (!perCore && limit != Math.rint(limit))) {
                throw error(limitNode, "a bulkhead's limit is a whole number of executions (2) or a multiple of the"
                        + " cores (1x, 0.5x), above 0; not '" + lv + "'");
            }
            int queue = e.containsKey("queue") ? nonNegativeInt(e.get("queue").getValueNode(), "queue") : 0;
            long timeout = 0;
            if (e.containsKey("timeout")) {
                ScalarNode t = scalar(e.get("timeout").getValueNode(), "timeout");
                timeout = durationNanos(t);
            }
            return new BulkheadDef(pc.getValue(), p, limit, perCore, queue, timeout, file + ":" + line(pc));
        }

        private Pointcut executionPointcut(ScalarNode s, String what) throws PolicyFileException {
            Pointcut p = pointcut(s);
            for (Pointcut.Designator d : p.designators()) {
                if (d.kind() != Pointcut.Kind.EXECUTION) {
                    throw pointcutError(s, d.column(), what + " applies to method executions: execution(...), not "
                            + d.kind().name().toLowerCase(java.util.Locale.ROOT) + "(...)");
                }
            }
            return p;
        }

        private int nonNegativeInt(Node n, String what) throws PolicyFileException {
            String v = scalar(n, what).getValue();
            try {
                int i = Integer.parseInt(v);
                if (i >= 0) {
                    return i;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error(n, what + " must be a whole number, 0 or more, not '" + v + "'");
        }

        /** {@code 500ms}, {@code 2s}, {@code 1m}. */
        private long durationNanos(ScalarNode n) throws PolicyFileException {
            var m = Pattern.compile("([0-9]{1,9})(ms|s|m)").matcher(n.getValue().strip());
            if (m.matches()) {
                long v = Long.parseLong(m.group(1));
                long nanos = switch (m.group(2)) {
                    case "ms" -> v * 1_000_000L;
                    case "s" -> v * 1_000_000_000L;
                    default -> v * 60_000_000_000L;
                };
                if (nanos > 0) {
                    return nanos;
                }
            }
            throw error(n, "a time-out is a duration above 0 such as 500ms, 2s or 1m, not '" + n.getValue() + "'");
        }

        private TaskClassDef taskClass(Node item) throws PolicyFileException {
            MappingNode m = mapping(item, "a task class");
            String name = null;
            ScalarNode entryNode = null;
            String servletPath = null;
            Map<String, String> attrs = new LinkedHashMap<>();
            Map<String, Integer> attrLines = new LinkedHashMap<>();
            Set<String> seen = new HashSet<>();
            RequestSelector request = null;
            for (NodeTuple t : m.getValue()) {
                String k = key(t);
                if (!seen.add(k)) {
                    throw error(t.getKeyNode(), "duplicate key '" + k + "' in a task class");
                }
                if (k.equals("request")) {
                    request = request(t.getValueNode());
                    continue;
                }
                ScalarNode v = scalar(t.getValueNode(), k);
                switch (k) {
                    case "name" -> name = v.getValue();
                    case "entry" -> entryNode = v;
                    case "servletPath" -> {
                        servletPath = v.getValue();
                        checkPath(servletPath, v, "servletPath");
                    }
                    default -> {
                        attrs.put(k, v.getValue());
                        attrLines.put(k, line(t.getKeyNode()));
                    }
                }
            }
            if (name == null || name.isBlank()) {
                throw error(item, "task class without 'name'");
            }
            keyLines.put("taskClasses." + name, line(item));
            for (Map.Entry<String, Integer> a : attrLines.entrySet()) {
                keyLines.put("taskClasses." + name + "." + a.getKey(), a.getValue());
            }
            int selectors = (entryNode != null ? 1 : 0) + (servletPath != null ? 1 : 0) + (request != null ? 1 : 0);
            if (selectors == 0) {
                throw error(item, "task class '" + name + "' needs 'entry' (an execution pointcut), 'request'"
                        + " (what requests it takes) or 'servletPath'");
            }
            if (selectors > 1) {
                throw error(item, "task class '" + name + "' has more than one of 'entry', 'request' and"
                        + " 'servletPath'; choose one");
            }
            Pointcut entry = null;
            if (entryNode != null) {
                entry = pointcut(entryNode);
                boolean hasExecution = false;
                for (Pointcut.Designator d : entry.designators()) {
                    if (d.kind() == Pointcut.Kind.CALL) {
                        throw pointcutError(entryNode, d.column(),
                                "an entry is an execution join point; call(...) is not allowed here");
                    }
                    hasExecution |= d.kind() == Pointcut.Kind.EXECUTION;
                }
                if (!hasExecution) {
                    throw pointcutError(entryNode, 1, "an entry needs an execution(...) designator");
                }
            }
            return new TaskClassDef(name, entryNode == null ? null : entryNode.getValue(), entry, servletPath,
                    request, attrs, file + ":" + line(item));
        }

        /** Control and progress points are call join points ({@code what}: for the message). */
        private void checkCallPointcut(Pointcut p, ScalarNode s, String what) throws PolicyFileException {
            boolean hasCall = false;
            for (Pointcut.Designator d : p.designators()) {
                if (d.kind() == Pointcut.Kind.EXECUTION) {
                    throw pointcutError(s, d.column(), what
                            + "s are call join points; use call(...) && withincode(...), not execution(...)");
                }
                hasCall |= d.kind() == Pointcut.Kind.CALL;
            }
            if (!hasCall) {
                throw pointcutError(s, 1, "a " + what + " needs a call(...) designator");
            }
        }

        private void checkPath(String p, ScalarNode node, String key) throws PolicyFileException {
            boolean ok = p.startsWith("*.") ? p.indexOf('/') < 0 && p.length() > 2
                    : p.startsWith("/") && (p.indexOf('*') < 0 || p.endsWith("/*") && p.indexOf('*') == p.length() - 1);
            if (!ok) {
                throw error(node, "bad " + key + " '" + p + "': use an exact path (/chart), a prefix (/api/*)"
                        + " or an extension (*.png)");
            }
        }

        private static final Set<String> REQUEST_KEYS = Set.of("path", "method", "header", "port");
        private static final Set<String> HEADER_KEYS = Set.of("name", "value", "matches");
        private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

        /** {@code request: {path: ..., method: ..., header: ..., port: ...}}. */
        private RequestSelector request(Node n) throws PolicyFileException {
            MappingNode m = mapping(n, "request");
            Map<String, NodeTuple> e = entries(m, REQUEST_KEYS, "request");
            if (e.isEmpty()) {
                throw error(n, "request: {} names no condition; to take every request write request: {path: /*}");
            }
            List<String> paths = new ArrayList<>();
            if (e.containsKey("path")) {
                for (ScalarNode s : scalars(e.get("path").getValueNode(), "request.path")) {
                    checkPath(s.getValue(), s, "request path");
                    paths.add(s.getValue());
                }
            }
            List<String> methods = new ArrayList<>();
            if (e.containsKey("method")) {
                for (ScalarNode s : scalars(e.get("method").getValueNode(), "request.method")) {
                    String v = s.getValue();
                    if (!TOKEN.matcher(v).matches()) {
                        throw error(s, "bad request method '" + v + "': an HTTP method is one word (GET, POST, ...)");
                    }
                    String upper = v.toUpperCase(java.util.Locale.ROOT);
                    if (!v.equals(upper) && STANDARD_METHODS.contains(upper)) {
                        throw error(s, "request method '" + v + "' never matches: HTTP methods are case-sensitive;"
                                + " write " + upper);
                    }
                    methods.add(v);
                }
            }
            List<RequestSelector.HeaderCondition> headers = new ArrayList<>();
            if (e.containsKey("header")) {
                Node h = e.get("header").getValueNode();
                List<Node> items = h instanceof SequenceNode seq ? seq.getValue() : List.of(h);
                if (items.isEmpty()) {
                    throw error(h, "request.header is an empty list");
                }
                for (Node item : items) {
                    headers.add(header(item));
                }
            }
            int port = 0;
            if (e.containsKey("port")) {
                port = positiveInt(e.get("port").getValueNode(), "request.port");
                if (port > 65535) {
                    throw error(e.get("port").getValueNode(), "request.port must be a port number (1-65535), not " + port);
                }
            }
            return new RequestSelector(paths, methods, headers, port);
        }

        private static final Set<String> STANDARD_METHODS =
                Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH");

        /** {@code {name: X, value: V}} or {@code {name: X, matches: REGEX}}. */
        private RequestSelector.HeaderCondition header(Node n) throws PolicyFileException {
            MappingNode m = mapping(n, "request.header (name: and value: or matches:)");
            Map<String, NodeTuple> e = entries(m, HEADER_KEYS, "request.header");
            NodeTuple nameTuple = require(e, "name", n);
            ScalarNode name = scalar(nameTuple.getValueNode(), "request.header.name");
            if (!TOKEN.matcher(name.getValue()).matches()) {
                throw error(name, "bad header name '" + name.getValue() + "'");
            }
            if (e.containsKey("value") == e.containsKey("matches")) {
                throw error(n, "request.header needs exactly one of 'value' (the exact value) and 'matches'"
                        + " (a regular expression)");
            }
            if (e.containsKey("value")) {
                return new RequestSelector.HeaderCondition(name.getValue(),
                        scalar(e.get("value").getValueNode(), "request.header.value").getValue(), null);
            }
            ScalarNode regex = scalar(e.get("matches").getValueNode(), "request.header.matches");
            try {
                Pattern.compile(regex.getValue());
            } catch (java.util.regex.PatternSyntaxException x) {
                throw error(regex, "bad regular expression in request.header.matches: "
                        + x.getDescription() + " near index " + x.getIndex());
            }
            return new RequestSelector.HeaderCondition(name.getValue(), null, regex.getValue());
        }

        /** One scalar, or a non-empty list of them. */
        private List<ScalarNode> scalars(Node n, String what) throws PolicyFileException {
            if (n instanceof ScalarNode s) {
                return List.of(s);
            }
            if (n instanceof SequenceNode seq) {
                if (seq.getValue().isEmpty()) {
                    throw error(n, what + " is an empty list");
                }
                List<ScalarNode> out = new ArrayList<>();
                for (Node item : seq.getValue()) {
                    out.add(scalar(item, what));
                }
                return out;
            }
            throw error(n, what + " must be a value or a list of values");
        }

        private Pointcut pointcut(ScalarNode s) throws PolicyFileException {
            try {
                return PointcutParser.parse(s.getValue());
            } catch (PointcutSyntaxException e) {
                throw pointcutError(s, e.column(), "pointcut syntax error: " + e.problem());
            }
        }

        /** Maps a column inside the pointcut text to the file when the scalar sits on one line. */
        private PolicyFileException pointcutError(ScalarNode s, int pcColumn, String problem) {
            int line = line(s);
            if (s.getStartMark().getLine() == s.getEndMark().getLine()) {
                int quote = s.getScalarStyle() == DumperOptions.ScalarStyle.PLAIN ? 0 : 1;
                return new PolicyFileException(file, line, s.getStartMark().getColumn() + quote + pcColumn, problem);
            }
            return new PolicyFileException(file, line, 0, problem + " (column " + pcColumn + " of the pointcut)");
        }

        private Map<String, NodeTuple> entries(MappingNode m, Set<String> allowed, String where)
                throws PolicyFileException {
            Map<String, NodeTuple> out = new LinkedHashMap<>();
            for (NodeTuple t : m.getValue()) {
                String k = key(t);
                if (!allowed.contains(k)) {
                    throw error(t.getKeyNode(), "unknown " + where + " key '" + k + "' (expected one of "
                            + String.join(", ", new java.util.TreeSet<>(allowed)) + ")");
                }
                if (out.put(k, t) != null) {
                    throw error(t.getKeyNode(), "duplicate key '" + k + "'");
                }
            }
            return out;
        }

        private NodeTuple require(Map<String, NodeTuple> entries, String key, Node parent) throws PolicyFileException {
            NodeTuple t = entries.get(key);
            if (t == null) {
                throw error(parent, "missing '" + key + "'");
            }
            return t;
        }

        private String key(NodeTuple t) throws PolicyFileException {
            return scalar(t.getKeyNode(), "a key").getValue();
        }

        private MappingNode mapping(Node n, String what) throws PolicyFileException {
            if (n instanceof MappingNode m) {
                return m;
            }
            throw error(n, what + " must be a mapping of key: value");
        }

        private SequenceNode sequence(Node n, String what) throws PolicyFileException {
            if (n instanceof SequenceNode s) {
                return s;
            }
            throw error(n, what + " must be a list ('- ...' items)");
        }

        private ScalarNode scalar(Node n, String what) throws PolicyFileException {
            if (n instanceof ScalarNode s) {
                return s;
            }
            throw error(n, what + " must be a single value, not a list or mapping");
        }

        private boolean bool(Node n, String what) throws PolicyFileException {
            String v = scalar(n, what).getValue();
            if (v.equals("true") || v.equals("false")) {
                return Boolean.parseBoolean(v);
            }
            throw error(n, what + " must be true or false, not '" + v + "'");
        }

        private int positiveInt(Node n, String what) throws PolicyFileException {
            String v = scalar(n, what).getValue();
            try {
                int i = Integer.parseInt(v);
                if (i > 0) {
                    return i;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error(n, what + " must be a positive whole number, not '" + v + "'");
        }

        private int line(Node n) {
            return n.getStartMark().getLine() + 1;
        }

        private PolicyFileException error(Node n, String problem) {
            return new PolicyFileException(file, line(n), 0, problem);
        }
    }
}
