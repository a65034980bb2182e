package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.testtargets.Worker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** In-process weaving with an agent attached to the test JVM, against the real scheduler. */
public class PolicyWeavingTest {
    private static Instrumentation inst;
    private Weaving weaving;

    static final String POLICY = """
            taskClasses:
              - name: collector
                entry: execution(void io.qosweaver.testtargets.Worker.collect*(..))
                importance: high
            controlPoints:
              - call(int io.qosweaver.testtargets.Worker.step(int)) && withincode(* io.qosweaver.testtargets.Worker.loop(..))
              - call(* *.step(..)) && withincode(* io.qosweaver.testtargets.LateWorker.run(..))
              - call(* nowhere.Missing.x(..)) && withincode(* nowhere.Missing.y(..))
            policy:
              name: importance
              lowLimit: 1
            """;

    @BeforeAll
    static void attach() {
        inst = ByteBuddyAgent.install();
        new Worker().loop(1); // loaded (and run) before weaving: must be retransformed
    }

    @AfterEach
    void unweave() {
        if (weaving != null) {
            weaving.reset();
        }
        Scheduler.uninstall();
    }

    private void weave() throws Exception {
        PolicyFile policy = PolicyFile.parse("test.yaml", POLICY);
        Scheduler.install(SchedulerGateway.configOf(policy));
        weaving = PolicyWeaving.install(inst, policy, new AgentLog(new PrintStream(new ByteArrayOutputStream()), false));
    }

    private static long controlPoints() {
        return Scheduler.current().stats().controlPoints();
    }

    @Test
    void aControlPointWovenWhereItsMethodHoldsAMonitorIsReportedOncePerMethod() throws Exception {
        PolicyFile policy = PolicyFile.parse("locked.yaml", """
                taskClasses:
                  - name: t
                    entry: execution(void nowhere.Missing.run())
                controlPoints:
                  - call(int io.qosweaver.testtargets.LockedWorker.step(int)) && withincode(* io.qosweaver.testtargets.LockedWorker.*(..))
                policy:
                  name: importance
                """);
        Scheduler.install(SchedulerGateway.configOf(policy));
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        weaving = PolicyWeaving.install(inst, policy, new AgentLog(new PrintStream(log, true), false));
        io.qosweaver.testtargets.LockedWorker w = new io.qosweaver.testtargets.LockedWorker();
        long before = controlPoints();
        assertThat(w.inBlock(3) + w.inMethod(3) + w.outside(3)).isNotZero();
        assertThat(controlPoints() - before).as("all three woven").isEqualTo(9);
        String text = log.toString();
        assertThat(text).contains("control point locked.yaml:5 is woven into int io.qosweaver.testtargets.LockedWorker"
                + ".inBlock(int) at a call to int io.qosweaver.testtargets.LockedWorker.step(int) made while a monitor"
                + " is held");
        assertThat(text).contains("LockedWorker.inMethod(int) at a call to");
        assertThat(text).doesNotContain("LockedWorker.outside(int) at a call to");
        assertThat(text.split("is woven into", -1)).as("once per method, not per call site").hasSize(3);
        assertThat(text).contains("it never suspends a thread there");

        // inside the monitor the control point is the one that never suspends
        Map<String, List<String>> code = instructions(currentBytes(io.qosweaver.testtargets.LockedWorker.class));
        String inMonitor = "INVOKESTATIC io/qosweaver/scheduler/QoS.controlPointInMonitor()V";
        String plain = "INVOKESTATIC io/qosweaver/scheduler/QoS.controlPoint()V";
        assertThat(code.get("inBlock(I)I")).contains(inMonitor).doesNotContain(plain);
        assertThat(code.get("inMethod(I)I")).contains(inMonitor).doesNotContain(plain);
        assertThat(code.get("outside(I)I")).contains(plain).doesNotContain(inMonitor);
    }

    @Test
    void progressPointsAreWovenBeforeTheirCallsAndCountForTheThreadsClass() throws Exception {
        PolicyFile policy = PolicyFile.parse("progress.yaml", """
                taskClasses:
                  - name: collector
                    entry: execution(void io.qosweaver.testtargets.Worker.collect*(..))
                    importance: high
                controlPoints:
                  - call(int io.qosweaver.testtargets.Worker.step(int)) && withincode(* io.qosweaver.testtargets.Worker.loop(..))
                progressPoints:
                  - call(int io.qosweaver.testtargets.Worker.other(int)) && withincode(* io.qosweaver.testtargets.Worker.loop(..))
                  - call(* nowhere.Missing.x(..)) && withincode(* nowhere.Missing.y(..))
                policy:
                  name: deadlock-aware
                """);
        Scheduler.install(SchedulerGateway.configOf(policy));
        weaving = PolicyWeaving.install(inst, policy, new AgentLog(new PrintStream(new ByteArrayOutputStream()), false));
        Worker w = new Worker();
        w.collect(() -> {
            long before = controlPoints();
            assertThat(w.loop(5)).isEqualTo(5);
            assertThat(controlPoints() - before).as("progress points are not control points").isEqualTo(5);
        });
        w.loop(3); // outside any task class: counted for nobody
        assertThat(Scheduler.current().stats().progressPoints()).containsEntry("collector", 5L);

        Map<String, Long> byLocation = new LinkedHashMap<>();
        for (WeavingStats.PointcutStats p : weaving.stats().pointcuts()) {
            byLocation.put(p.kind() + " " + p.location(), p.joinPoints());
        }
        assertThat(byLocation).containsEntry("progressPoint progress.yaml:8", 1L)
                .containsEntry("progressPoint progress.yaml:9", 0L);
        // (counted before reading the bytes: retransforming to read them weaves the class again)
        assertThat(weaving.stats().unmatched()).as("a progress pointcut that matches nothing is reported").isEqualTo(1);

        List<String> loop = instructions(currentBytes(Worker.class)).get("loop(I)I");
        int pp = loop.indexOf("INVOKESTATIC io/qosweaver/scheduler/QoS.progressPoint()V");
        assertThat(loop.stream().filter(x -> x.contains("QoS.progressPoint"))).hasSize(1);
        assertThat(loop.get(pp + 1)).isEqualTo("INVOKEVIRTUAL io/qosweaver/testtargets/Worker.other(I)I");
    }

    @Test
    void entryAdviceEntersAndExitsAlsoOnException() throws Exception {
        weave();
        Worker w = new Worker();
        AtomicReference<Map<String, Integer>> inside = new AtomicReference<>();
        w.collect(() -> inside.set(Scheduler.current().stats().runningThreads()));
        assertThat(inside.get()).containsEntry("collector", 1);
        assertThat(Scheduler.current().stats().runningThreads()).containsEntry("collector", 0);

        assertThatThrownBy(w::collectAndFail).isInstanceOf(IllegalStateException.class).hasMessage("boom");
        assertThat(Scheduler.current().stats().runningThreads()).containsEntry("collector", 0);
    }

    @Test
    void aSchedulerReplacedInsideAWovenTaskAdoptsItAndItsExitReachesTheNewOne() throws Exception {
        weave();
        PolicyFile lowLimit2 = PolicyFile.parse("test.yaml", POLICY.replace("lowLimit: 1", "lowLimit: 2"));
        Worker w = new Worker();
        AtomicReference<Map<String, Integer>> adopted = new AtomicReference<>();
        AtomicReference<Scheduler> next = new AtomicReference<>();
        w.collect(() -> { // what ctl set does while a collection runs: the same classes, new parameters
            adopted.set(SchedulerGateway.install(SchedulerGateway.configOf(lowLimit2)));
            next.set(Scheduler.current());
            assertThat(next.get().stats().runningThreads()).as("the running collection, adopted")
                    .containsEntry("collector", 1);
        });
        assertThat(adopted.get()).containsExactly(Map.entry("collector", 1));
        assertThat(SchedulerGateway.adoptionText(adopted.get()))
                .isEqualTo("1 running task adopted by the new scheduler (collector 1)");
        assertThat(next.get().stats().runningThreads()).as("its woven exit reached the new scheduler")
                .containsEntry("collector", 0);

        assertThat(SchedulerGateway.adoptionText(Map.of())).isEqualTo("no running task to adopt");
        assertThat(SchedulerGateway.adoptionText(Map.of("collect", 1, "chart", 3)))
                .startsWith("4 running tasks adopted by the new scheduler (");
        Scheduler.uninstall();
        assertThat(SchedulerGateway.install(SchedulerGateway.configOf(lowLimit2))).as("nothing was installed").isNull();
    }

    @Test
    void controlPointsOnlyBeforeMatchingCallsInMatchingMethods() throws Exception {
        weave();
        Worker w = new Worker();
        w.collect(() -> {
            long before = controlPoints();
            assertThat(w.loop(5)).isEqualTo(5);
            assertThat(controlPoints() - before).isEqualTo(5);
            before = controlPoints();
            w.untouched(7);
            assertThat(controlPoints() - before).isZero();
        });

        // in the bytecode: exactly one QoS.controlPoint, immediately before the step(..) call
        List<String> loop = instructions(currentBytes(Worker.class)).get("loop(I)I");
        int cp = loop.indexOf("INVOKESTATIC io/qosweaver/scheduler/QoS.controlPoint()V");
        assertThat(loop.stream().filter(s -> s.contains("QoS.controlPoint"))).hasSize(1);
        assertThat(loop.get(cp + 1)).isEqualTo("INVOKEVIRTUAL io/qosweaver/testtargets/Worker.step(I)I");
    }

    @Test
    void unmatchedMethodsAreByteIdenticalAndResetRestoresTheClass() throws Exception {
        Map<String, List<String>> original = instructions(currentBytes(Worker.class));
        weave();
        Map<String, List<String>> woven = instructions(currentBytes(Worker.class));
        assertThat(woven.get("loop(I)I")).isNotEqualTo(original.get("loop(I)I"));
        assertThat(woven.get("collect(Ljava/lang/Runnable;)V")).isNotEqualTo(original.get("collect(Ljava/lang/Runnable;)V"));
        for (String untouched : List.of("untouched(I)I", "step(I)I", "other(I)I", "<init>()V")) {
            assertThat(woven.get(untouched)).as(untouched).isEqualTo(original.get(untouched));
        }
        assertThat(weaving.stats().classesWoven()).isPositive();

        assertThat(weaving.reset()).isTrue();
        weaving = null;
        assertThat(instructions(currentBytes(Worker.class))).isEqualTo(original);
    }

    @Test
    void classesLoadedLaterAreWovenAndStatsNameUnmatchedPointcuts() throws Exception {
        weave();
        Worker w = new Worker();
        w.collect(() -> {
            long before = controlPoints();
            new io.qosweaver.testtargets.LateWorker().run(w, 3);
            assertThat(controlPoints() - before).isEqualTo(3);
        });
        Map<String, Long> byLocation = new LinkedHashMap<>();
        for (WeavingStats.PointcutStats p : weaving.stats().pointcuts()) {
            byLocation.put(p.kind() + " " + p.location(), p.joinPoints());
        }
        assertThat(byLocation).containsEntry("entry test.yaml:2", 2L)
                .containsEntry("controlPoint test.yaml:6", 1L)
                .containsEntry("controlPoint test.yaml:7", 1L)
                .containsEntry("controlPoint test.yaml:8", 0L);
        assertThat(weaving.stats().unmatched()).isEqualTo(1);
    }

    @Test
    void filesThatWeaveTheSamePointcutsAtOtherLinesAreTheSameWeaving() throws Exception {
        PolicyFile a = PolicyFile.parse("a.yaml", POLICY);
        // moved two lines down, another policy: the same bytecode
        PolicyFile moved = PolicyFile.parse("b.yaml", "# moved\n\n" + POLICY.replace("name: importance", "name: admission"));
        assertThat(PolicyWeaving.sameWeaving(a, moved)).isTrue();
        assertThat(PolicyWeaving.sameWeaving(a, PolicyFile.parse("c.yaml", POLICY.replace("Worker.loop", "Worker.other"))))
                .as("another control point").isFalse();
        assertThat(PolicyWeaving.sameWeaving(a, PolicyFile.parse("d.yaml", POLICY.replace("name: collector", "name: gatherer"))))
                .as("the entry advice names its task class").isFalse();
        assertThat(PolicyWeaving.sameWeaving(a, PolicyFile.parse("e.yaml", POLICY.replace("  - call(* nowhere.Missing.x(..))"
                + " && withincode(* nowhere.Missing.y(..))\n", "")))).as("one control point fewer").isFalse();

        String requests = """
                taskClasses:
                  - name: lookup
                    request: {path: /api/lookup/*}
                    importance: high
                policy:
                  name: importance
                  lowLimit: 1
                """;
        PolicyFile r = PolicyFile.parse("r.yaml", requests);
        assertThat(PolicyWeaving.sameWeaving(r, PolicyFile.parse("s.yaml", requests.replace("/api/lookup/*", "/other/*")
                .replace("name: lookup", "name: other")))).as("which request is which class is a table").isTrue();
        assertThat(PolicyWeaving.sameWeaving(r, PolicyFile.parse("t.yaml", requests.replace("request: {path: /api/lookup/*}",
                "servletPath: /api/lookup/*")))).as("servlets only: the servers are not woven").isFalse();
    }

    @Test
    void theServersPoolsAreWatchedWithRequestClassesUnlessTheThreadPoolsSectionWeavesThem() throws Exception {
        String requests = """
                taskClasses:
                  - name: lookup
                    request: {path: /api/lookup/*}
                    importance: high
                policy:
                  name: importance
                """;
        PolicyFile r = PolicyFile.parse("r.yaml", requests);
        assertThat(PolicyWeaving.watchedPools(r)).containsExactly("jetty", "tomcat");
        assertThat(PolicyWeaving.plan(r, false)).filteredOn(p -> p.label().kind().equals("poolWatch"))
                .extracting(p -> p.label().location()).containsExactly("(jetty pools, watched)", "(tomcat pools, watched)");
        assertThat(PolicyWeaving.watchedPools(PolicyFile.parse("j.yaml", requests + """
                aspects:
                  threadPools:
                    - server: jetty
                      max: 64
                """))).as("Jetty's sized by the section").containsExactly("tomcat");
        assertThat(PolicyWeaving.watchedPools(PolicyFile.parse("e.yaml", POLICY))).as("entries only: no server's").isEmpty();
    }

    @Test
    void adoptingAFileOfTheSameWeavingRelabelsTheStatisticsAndKeepsTheirCounts() throws Exception {
        weave();
        PolicyWeaving.adopt(weaving, PolicyFile.parse("moved.yaml", "# moved\n\n" + POLICY));
        Map<String, Long> byLocation = new LinkedHashMap<>();
        for (WeavingStats.PointcutStats p : weaving.stats().pointcuts()) {
            byLocation.put(p.kind() + " " + p.location(), p.joinPoints());
        }
        assertThat(byLocation).containsOnlyKeys("entry moved.yaml:4", "controlPoint moved.yaml:8",
                "controlPoint moved.yaml:9", "controlPoint moved.yaml:10");
        assertThat(byLocation).containsEntry("entry moved.yaml:4", 2L).containsEntry("controlPoint moved.yaml:8", 1L)
                .containsEntry("controlPoint moved.yaml:10", 0L);
        assertThat(weaving.stats().pointcuts()).extracting(WeavingStats.PointcutStats::location).as("in the file's order")
                .containsExactly("moved.yaml:4", "moved.yaml:8", "moved.yaml:9", "moved.yaml:10");
    }

    @Test
    void aSwapToOtherJoinPointsRetransformsEachClassOnceAndRestoresWhatOnlyTheOldWove() throws Exception {
        Class<?> both = io.qosweaver.testtargets.SwapWorker.class; // loaded before either weaving
        Map<String, List<String>> original = instructions(currentBytes(Worker.class));
        Map<String, List<String>> bothOriginal = instructions(currentBytes(both));
        String cpInBoth = "  - call(* *.step(..)) && withincode(* io.qosweaver.testtargets.SwapWorker.run(..))\n";
        String old = """
                taskClasses:
                  - name: collector
                    entry: execution(void io.qosweaver.testtargets.Worker.collect*(..))
                    importance: high
                controlPoints:
                  - call(int io.qosweaver.testtargets.Worker.step(int)) && withincode(* io.qosweaver.testtargets.Worker.loop(..))
                """ + cpInBoth + "policy: {name: importance, lowLimit: 1}\n";
        String next = """
                taskClasses:
                  - name: collector
                    entry: execution(void nowhere.Missing.run())
                    importance: high
                controlPoints:
                """ + cpInBoth + "policy: {name: importance, lowLimit: 1}\n";
        AgentLog quiet = new AgentLog(new PrintStream(new ByteArrayOutputStream()), false);
        Weaving first = PolicyWeaving.install(inst, PolicyFile.parse("old.yaml", old), quiet);
        weaving = first;
        assertThat(first.stats().retransformed()).as("Worker and SwapWorker").isEqualTo(2);
        assertThat(instructions(currentBytes(Worker.class))).isNotEqualTo(original);

        first.detach();
        weaving = PolicyWeaving.install(inst, PolicyFile.parse("next.yaml", next), quiet);
        assertThat(weaving.stats().retransformed()).as("SwapWorker, from its original bytes").isEqualTo(1);
        assertThat(first.restoreLeftovers(weaving)).as("Worker, which only the old file wove").isEqualTo(1);

        assertThat(instructions(currentBytes(Worker.class))).isEqualTo(original);
        List<String> run = instructions(currentBytes(both)).get("run(Lio/qosweaver/testtargets/Worker;I)I");
        assertThat(run.stream().filter(i -> i.contains("QoS.controlPoint"))).as("one control point, not two").hasSize(1);
        assertThat(weaving.reset()).isTrue();
        weaving = null;
        assertThat(instructions(currentBytes(both))).isEqualTo(bothOriginal);
    }

    @Test
    void theStartUpRehearsalWeavesItsOwnTargetAndLeavesItAsItWas() throws Exception {
        Class<?> target = io.qosweaver.agent.weaving.RehearsalTarget.class;
        Map<String, List<String>> original = instructions(currentBytes(target));
        assertThat(SwapRehearsal.run(inst, new AgentLog(new PrintStream(new ByteArrayOutputStream()), false))).isTrue();
        assertThat(instructions(currentBytes(target))).isEqualTo(original);
    }

    /** The class's current bytes, as the JVM hands them to a transformer on retransformation. */
    static byte[] currentBytes(Class<?> type) throws Exception {
        AtomicReference<byte[]> bytes = new AtomicReference<>();
        ClassFileTransformer capture = new ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> c, ProtectionDomain pd, byte[] b) {
                if (c == type) {
                    bytes.set(b.clone());
                }
                return null;
            }
        };
        inst.addTransformer(capture, true);
        try {
            inst.retransformClasses(type);
        } finally {
            inst.removeTransformer(capture);
        }
        return bytes.get();
    }

    /** Method name+descriptor to its instructions, with operands (labels by order of appearance). */
    public static Map<String, List<String>> instructions(byte[] classFile) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                List<String> insns = new ArrayList<>();
                out.put(name + desc, insns);
                return new MethodVisitor(Opcodes.ASM9) {
                    final Map<Label, Integer> labels = new LinkedHashMap<>();

                    String label(Label l) {
                        return "L" + labels.computeIfAbsent(l, k -> labels.size());
                    }

                    @Override public void visitInsn(int op) { insns.add("OP " + op); }
                    @Override public void visitIntInsn(int op, int operand) { insns.add("INT " + op + " " + operand); }
                    @Override public void visitVarInsn(int op, int var) { insns.add("VAR " + op + " " + var); }
                    @Override public void visitTypeInsn(int op, String type) { insns.add("TYPE " + op + " " + type); }
                    @Override public void visitFieldInsn(int op, String o, String n, String d) { insns.add("FIELD " + op + " " + o + "." + n + d); }
                    @Override public void visitJumpInsn(int op, Label l) { insns.add("JUMP " + op + " " + label(l)); }
                    @Override public void visitLabel(Label l) { insns.add(label(l) + ":"); }
                    @Override public void visitLdcInsn(Object v) { insns.add("LDC " + v); }
                    @Override public void visitIincInsn(int var, int inc) { insns.add("IINC " + var + " " + inc); }
                    @Override public void visitInvokeDynamicInsn(String n, String d, Handle h, Object... a) { insns.add("INDY " + n + d); }

                    @Override
                    public void visitMethodInsn(int op, String o, String n, String d, boolean itf) {
                        String kind = switch (op) {
                            case Opcodes.INVOKESTATIC -> "INVOKESTATIC";
                            case Opcodes.INVOKEVIRTUAL -> "INVOKEVIRTUAL";
                            case Opcodes.INVOKESPECIAL -> "INVOKESPECIAL";
                            default -> "INVOKEINTERFACE";
                        };
                        insns.add(kind + " " + o + "." + n + d);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return out;
    }
}
