package io.qosweaver.agent.runtime;

import io.qosweaver.agent.control.LocalControl;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.PolicyFileException;
import io.qosweaver.scheduler.stats.SchedulerStats;
import java.nio.file.Files;
import java.nio.file.Path;
import io.qosweaver.pointcuts.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The commands of {@code qosweaver ctl PID}: {@code status}, {@code swap FILE}, {@code set
 * KEY=VALUE...}, {@code unweave}; {@code --json} first for a JSON answer. Runs on the local
 * control's one commands thread, so two commands never weave at once.
 */
final class RuntimeCommands implements LocalControl.Handler {
    static final String USAGE = "commands: status | swap FILE | set policy.KEY=VALUE ... | unweave"
            + " | hooks | hooks count start|stop|status | watch start MS RATE POINTCUT | watch poll | watch stop (--json first for JSON)";

    private final AgentRuntime runtime;

    RuntimeCommands(AgentRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public LocalControl.Reply handle(List<String> words) {
        boolean json = !words.isEmpty() && words.get(0).equals("--json");
        List<String> w = json ? words.subList(1, words.size()) : words;
        if (w.isEmpty()) {
            return LocalControl.Reply.error("no command; " + USAGE);
        }
        String cmd = w.get(0);
        List<String> args = w.subList(1, w.size());
        try {
            switch (cmd) {
                case "status":
                    if (!args.isEmpty()) {
                        return LocalControl.Reply.error("status takes no argument");
                    }
                    return LocalControl.Reply.ok(json ? statusJson() : statusText());
                case "swap":
                    if (args.size() != 1) {
                        return LocalControl.Reply.error("swap takes one policy file, the path as the JVM sees it");
                    }
                    Path file = Path.of(args.get(0));
                    if (!file.isAbsolute()) {
                        return LocalControl.Reply.error("swap " + file + ": the path must be absolute (the JVM's working"
                                + " directory is not the caller's)");
                    }
                    if (!Files.isReadable(file)) {
                        return LocalControl.Reply.error("swap " + file + ": no such readable file; the policy in force"
                                + " is unchanged");
                    }
                    return done(json, runtime.swap(file));
                case "set":
                    if (args.isEmpty()) {
                        return LocalControl.Reply.error("set takes policy.KEY=VALUE pairs, e.g. set policy.lowLimit=2");
                    }
                    Map<String, String> changes = new LinkedHashMap<>();
                    for (String a : args) {
                        int eq = a.indexOf('=');
                        if (eq <= 0 || eq == a.length() - 1) {
                            return LocalControl.Reply.error("set: '" + a + "' is not KEY=VALUE (e.g. policy.lowLimit=2)");
                        }
                        changes.put(a.substring(0, eq), a.substring(eq + 1));
                    }
                    return done(json, runtime.set(changes));
                case "hooks":
                    if (!args.isEmpty() && args.get(0).equals("count")) {
                        return hooksCount(!runtime.hooksStatus().isEmpty(), HookCounter.woven(), args.subList(1, args.size()));
                    }
                    if (!args.isEmpty()) {
                        return LocalControl.Reply.error("hooks takes no argument, or count start|stop|status");
                    }
                    return LocalControl.Reply.ok(hooksJson());
                case "unweave":
                    if (!args.isEmpty()) {
                        return LocalControl.Reply.error("unweave takes no argument");
                    }
                    boolean complete = runtime.unweave();
                    String text = complete ? "unwoven: every woven class is back to its original bytes; the scheduler is"
                            + " uninstalled (swap a policy file in to schedule again)"
                            : "unwoven, but the JVM refused to retransform some classes (see the JVM's output)";
                    return complete ? done(json, text) : LocalControl.Reply.error(text);
                case "help":
                    return LocalControl.Reply.ok(USAGE);
                case "watch":
                    return watch(args);
                case "profile":
                    return LocalControl.Reply.error("this JVM's agent schedules; profiling is the agent started in its"
                            + " profiling mode (qosweaver profile, or qosweaver attach PID --profile FILE --include PKG)");
                default:
                    return LocalControl.Reply.error("unknown command '" + cmd + "'; " + USAGE);
            }
        } catch (PolicyFileException e) {
            return LocalControl.Reply.error("policy " + e.getMessage() + "; the policy in force is unchanged");
        } catch (IllegalArgumentException | IllegalStateException e) {
            return LocalControl.Reply.error(e.getMessage());
        }
    }

    /**
     * {@code hooks count start|stop|status}: attaches the counting aspect at every idle hook of the
     * hooks mode ({@code Hooks.attach}), so that a bench can count the hooks a request passes. JSON
     * {@code {"counting":B,"entered":N,"exited":N,"called":N}}; {@code stop} answers the counts
     * since {@code start} and detaches. Only in the hooks mode: elsewhere no hook calls the class.
     */
    static LocalControl.Reply hooksCount(boolean hooksMode, HookCounter c, List<String> args) {
        if (!hooksMode) {
            return LocalControl.Reply.error("hooks count: this agent runs no hooks mode (start it with hooks=execution|all)");
        }
        String usage = "hooks count start | hooks count stop | hooks count status";
        if (args.size() != 1) {
            return LocalControl.Reply.error(usage);
        }
        long[] fired;
        switch (args.get(0)) {
            case "start" -> {
                c.attach(true);
                fired = c.fired();
            }
            case "stop" -> {
                fired = c.fired(); // read before detaching: attach restarts the counts
                c.attach(false);
            }
            case "status" -> fired = c.fired();
            default -> {
                return LocalControl.Reply.error("hooks count " + args.get(0) + ": " + usage);
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("counting", c.attached());
        m.put("entered", fired[0]);
        m.put("exited", fired[1]);
        m.put("called", fired[2]);
        return LocalControl.Reply.ok(Json.write(m));
    }

    private LocalControl.Reply watch(List<String> args) {
        String sub = args.isEmpty() ? "" : args.get(0);
        switch (sub) {
            case "start": {
                if (args.size() < 4) {
                    return LocalControl.Reply.error("watch start MS RATE POINTCUT");
                }
                long ms;
                int rate;
                try {
                    ms = Long.parseLong(args.get(1));
                    rate = Integer.parseInt(args.get(2));
                } catch (NumberFormatException e) {
                    return LocalControl.Reply.error("watch start MS RATE POINTCUT: MS and RATE are numbers");
                }
                return LocalControl.Reply.ok(runtime.watch().start(String.join(" ", args.subList(3, args.size())), ms,
                        rate));
            }
            case "poll":
                return LocalControl.Reply.ok(runtime.watch().poll());
            case "stop":
                return LocalControl.Reply.ok(runtime.watch().stop());
            default:
                return LocalControl.Reply.error("watch start MS RATE POINTCUT | watch poll | watch stop");
        }
    }

    private static LocalControl.Reply done(boolean json, String text) {
        if (!json) {
            return LocalControl.Reply.ok(text);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("ok", true);
        m.put("message", text);
        return LocalControl.Reply.ok(Json.write(m));
    }

    String statusText() {
        StringBuilder b = new StringBuilder();
        PolicyFile p = runtime.policy();
        Weaving w = runtime.weaving();
        b.append("pid ").append(ProcessHandle.current().pid()).append('\n');
        if (p == null || w == null) {
            b.append("policy: none in force (").append(runtime.unscheduled() ? "unscheduled" : "unwoven")
                    .append("; last file ").append(runtime.policyFile()).append(")\n");
            return b.toString();
        }
        b.append("policy file: ").append(runtime.policyFile()).append('\n');
        b.append("policy: ").append(p.policyName()).append(' ').append(parameters(p)).append('\n');
        b.append("task classes:");
        for (PolicyFile.TaskClassDef t : p.taskClasses()) {
            b.append(' ').append(t.name());
        }
        b.append('\n');
        WeavingStats s = w.stats();
        b.append("woven: ").append(s.classesWoven()).append(" classes (").append(s.retransformed())
                .append(" retransformed), ").append(s.errors()).append(" errors\n");
        for (WeavingStats.PointcutStats pc : s.pointcuts()) {
            b.append("  ").append(pc.kind()).append(' ').append(pc.location()).append(": ").append(pc.joinPoints())
                    .append(" join points\n");
        }
        for (PolicyFile.BulkheadDef bh : p.bulkheads()) {
            b.append("  ").append(aspectState(bh.location())).append('\n');
        }
        for (PolicyFile.SemaphoreDef sd : p.semaphores()) {
            b.append("  ").append(aspectState(sd.name() + " (" + sd.location() + ")")).append('\n');
        }
        for (PolicyFile.SynchronizeDef sd : p.synchronizations()) {
            b.append("  ").append(aspectState(sd.location())).append('\n');
        }
        for (PolicyFile.TimeoutDef td : p.timeouts()) {
            b.append("  ").append(aspectState(td.location())).append('\n');
        }
        // pools seen under an earlier policy too: after a swap without the section they show their own values again
        String pools = io.qosweaver.agent.bootstrap.ServerPools.describe();
        if (!pools.isEmpty()) {
            b.append(pools.replaceAll("(?m)^", "  "));
        } else if (!p.threadPools().isEmpty()) {
            b.append("  threadPools: no server pool seen yet\n");
        }
        SchedulerStats st = SchedulerGateway.stats();
        if (st != null) {
            b.append("scheduler: ").append(st.controlPoints()).append(" control points, ").append(st.suspensions())
                    .append(" suspensions, ").append(st.suspendedThreads()).append(" threads suspended now, running ")
                    .append(st.runningThreads()).append('\n');
        }
        return b.toString();
    }

    /** The live counters of the aspect registered last under this location (the policy in force's). */
    private static String aspectState(String location) {
        return io.qosweaver.agent.bootstrap.Aspects.describeLatest(location);
    }

    private Map<String, String> parameters(PolicyFile p) {
        Map<String, String> m = new LinkedHashMap<>(p.policyParameters());
        m.putAll(runtime.overrides());
        return m;
    }

    /**
     * {@code hooks}: the hooks mode's counters and, with {@code recordClassBytes}, what the class-byte
     * taps saw (the woven classes, how many are byte-identical to their original now) and what the
     * woven classes take in metaspace beyond their originals.
     */
    String hooksJson() {
        Map<String, Object> m = new LinkedHashMap<>(runtime.hooksStatus());
        io.qosweaver.agent.unit.hooks.ClassBytesTaps taps = runtime.taps();
        if (taps != null) {
            m.put("classBytes", taps.report());
            io.qosweaver.agent.unit.hooks.MetaspaceCost.Result c = taps.metaspaceCost(5);
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("classes", c.classes());
            meta.put("failed", c.failed());
            meta.put("originalBytes", c.originalBytes());
            meta.put("wovenBytes", c.wovenBytes());
            meta.put("extraBytes", c.extraBytes());
            meta.put("originalRuns", java.util.Arrays.stream(c.originalRuns()).boxed().toList());
            meta.put("wovenRuns", java.util.Arrays.stream(c.wovenRuns()).boxed().toList());
            m.put("metaspace", meta);
        }
        return Json.write(m);
    }

    /**
     * The dynamic aspects of the policy in force, under the policy file's section names, each
     * entry its {@code location} (file:line), its pointcut text, {@code registered} and, when
     * registered, its live counters (what the text status prints on the aspect's line); {@code
     * threadPools} lists the server pools seen, with their values now and, when changed, before.
     */
    private static Map<String, Object> aspectsJson(PolicyFile p) {
        Map<String, Object> a = new LinkedHashMap<>();
        List<Object> bulkheads = new ArrayList<>();
        for (PolicyFile.BulkheadDef d : p.bulkheads()) {
            bulkheads.add(aspectJson(d.location(), d.location(), Map.of("pointcut", d.text())));
        }
        a.put("bulkheads", bulkheads);
        List<Object> semaphores = new ArrayList<>();
        for (PolicyFile.SemaphoreDef d : p.semaphores()) {
            Map<String, Object> def = new LinkedHashMap<>();
            def.put("name", d.name());
            def.put("wait", d.waitText());
            def.put("signal", d.signalText());
            semaphores.add(aspectJson(d.location(), d.name() + " (" + d.location() + ")", def));
        }
        a.put("semaphores", semaphores);
        List<Object> synchronize = new ArrayList<>();
        for (PolicyFile.SynchronizeDef d : p.synchronizations()) {
            synchronize.add(aspectJson(d.location(), d.location(), Map.of("pointcut", d.text())));
        }
        a.put("synchronize", synchronize);
        List<Object> timeouts = new ArrayList<>();
        for (PolicyFile.TimeoutDef d : p.timeouts()) {
            timeouts.add(aspectJson(d.location(), d.location(), Map.of("pointcut", d.text())));
        }
        a.put("timeouts", timeouts);
        a.put("threadPools", new ArrayList<Object>(io.qosweaver.agent.bootstrap.ServerPools.states()));
        return a;
    }

    private static Map<String, Object> aspectJson(String location, String registeredAs, Map<String, Object> def) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("location", location);
        one.putAll(def);
        Map<String, Object> state = io.qosweaver.agent.bootstrap.Aspects.stateLatest(registeredAs);
        one.put("registered", state != null);
        if (state != null) {
            one.putAll(state);
        }
        return one;
    }

    String statusJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        PolicyFile p = runtime.policy();
        Weaving w = runtime.weaving();
        m.put("pid", ProcessHandle.current().pid());
        m.put("policyFile", runtime.policyFile());
        m.put("inForce", p != null && w != null);
        Map<String, Object> hooks = runtime.hooksStatus();
        if (!hooks.isEmpty()) {
            m.put("hooks", hooks);
        }
        if (p != null && w != null) {
            m.put("policy", p.policyName());
            m.put("parameters", new LinkedHashMap<String, Object>(parameters(p)));
            m.put("overrides", new LinkedHashMap<String, Object>(runtime.overrides()));
            m.put("taskClasses", p.taskClasses().stream().map(PolicyFile.TaskClassDef::name).toList());
            WeavingStats s = w.stats();
            m.put("classesWoven", s.classesWoven());
            m.put("weaveErrors", s.errors());
            List<Object> pointcuts = new ArrayList<>();
            for (WeavingStats.PointcutStats pc : s.pointcuts()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("kind", pc.kind());
                one.put("location", pc.location());
                one.put("joinPoints", pc.joinPoints());
                pointcuts.add(one);
            }
            m.put("pointcuts", pointcuts);
            m.put("aspects", aspectsJson(p));
            SchedulerStats st = SchedulerGateway.stats();
            if (st != null) {
                Map<String, Object> sched = new LinkedHashMap<>();
                sched.put("controlPoints", st.controlPoints());
                sched.put("suspensions", st.suspensions());
                sched.put("suspendedThreads", st.suspendedThreads());
                sched.put("runningThreads", new LinkedHashMap<String, Object>(st.runningThreads()));
                m.put("scheduler", sched);
            }
        }
        return Json.write(m);
    }
}
