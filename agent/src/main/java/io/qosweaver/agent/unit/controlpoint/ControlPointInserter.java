package io.qosweaver.agent.unit.controlpoint;

import io.qosweaver.model.pointcut.MethodSignature;
import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.model.pointcut.TypeHierarchy;
import io.qosweaver.agent.weaving.Hierarchies;
import io.qosweaver.model.signature.Signatures;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Inserts {@code INVOKESTATIC io/qosweaver/scheduler/QoS.controlPoint()V} immediately before
 * each call instruction that a control-point pointcut selects, in the methods its withincode
 * selects (the paper's Fig. 9 pairs), and {@code QoS.progressPoint()} before each call a
 * progress-point pointcut selects (the paper's Fig. 12 before advice).
 *
 * <p>Where the method holds a monitor at the call (a {@code synchronized} method, or the call
 * inside a {@code synchronized} block: the class file's monitor depth before the call instruction,
 * from a data-flow pass over its control-flow graph, the generator's own analysis), the control
 * point is {@code QoS.controlPointInMonitor()}, which never suspends. The check is made once, at
 * weave time, per (method, callee) pair: if any call to that callee in the method is inside a
 * monitor, every control point before a call to it there is (a doubt counts as held). At run time
 * it costs nothing: the in-monitor control point's fast path is the plain one's. Monitors taken
 * by a caller further up the stack, and {@code java.util.concurrent} locks, are not visible here;
 * the deadlock-aware policy's timed waits cover those.
 *
 * <p>Why a raw ASM visitor rather than {@code MemberSubstitution}: a control point is an
 * addition, not a replacement; the inserted call takes and leaves nothing on the operand stack,
 * so stack maps and max stack stay valid and no frame is recomputed; and the decision needs the
 * caller and the callee together, with {@code +} resolved through the class's own type pool.
 * Every other instruction of the class is passed through untouched.
 */
final class ControlPointInserter implements AsmVisitorWrapper {
    static final String QOS = "io/qosweaver/scheduler/QoS";

    /** Told of each woven call site whose method holds a monitor there. */
    interface MonitorReport {
        void inMonitor(ControlPointUnit.Target target, String caller, String callee);
    }

    private final List<ControlPointUnit.Target> targets;
    private final SynchronizedRegions regions;
    private final MonitorReport report;
    private final String classKey;

    ControlPointInserter(List<ControlPointUnit.Target> targets, SynchronizedRegions regions, MonitorReport report,
            String classKey) {
        this.targets = List.copyOf(targets);
        this.regions = regions;
        this.report = report;
        this.classKey = classKey;
    }

    @Override
    public int mergeWriter(int flags) {
        return flags;
    }

    @Override
    public int mergeReader(int flags) {
        return flags;
    }

    @Override
    public ClassVisitor wrap(TypeDescription instrumentedType, ClassVisitor classVisitor,
            Implementation.Context implementationContext, TypePool typePool,
            FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods,
            int writerFlags, int readerFlags) {
        Map<String, MethodDescription> byKey = new HashMap<>();
        for (MethodDescription m : methods) {
            byKey.put(m.getInternalName() + m.getDescriptor(), m);
        }
        TypeHierarchy calleeHierarchy = Hierarchies.of(typePool);
        Map<ControlPointUnit.Target, Long> sites = new HashMap<>(); // this class's, reported at its end
        return new ClassVisitor(OpenedClassReader.ASM_API, classVisitor) {
            @Override
            public void visitEnd() {
                for (ControlPointUnit.Target t : targets) {
                    t.stats().woven(classKey, sites.getOrDefault(t, 0L));
                }
                super.visitEnd();
            }

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                MethodDescription m = byKey.get(name + descriptor);
                if (m == null || mv == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0) {
                    return mv;
                }
                MethodSignature caller = Hierarchies.signature(m);
                List<ControlPointUnit.Target> candidates = new ArrayList<>();
                for (ControlPointUnit.Target t : targets) {
                    if (t.pointcut().matchesMethod(caller) != Pointcut.Tri.FALSE) {
                        candidates.add(t);
                    }
                }
                return candidates.isEmpty() ? mv : new Inserter(mv, m, caller, candidates, calleeHierarchy, sites);
            }
        };
    }

    private final class Inserter extends MethodVisitor {
        private final MethodDescription method;
        private final MethodSignature caller;
        private final List<ControlPointUnit.Target> candidates;
        private final TypeHierarchy calleeHierarchy;
        private final Map<ControlPointUnit.Target, Long> sites;

        Inserter(MethodVisitor mv, MethodDescription method, MethodSignature caller,
                List<ControlPointUnit.Target> candidates, TypeHierarchy calleeHierarchy,
                Map<ControlPointUnit.Target, Long> sites) {
            super(OpenedClassReader.ASM_API, mv);
            this.method = method;
            this.caller = caller;
            this.candidates = candidates;
            this.calleeHierarchy = calleeHierarchy;
            this.sites = sites;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            // constructors and array pseudo-methods (int[].clone) are not join points here
            if (name.charAt(0) != '<' && owner.charAt(0) != '[' && !owner.equals(QOS)) {
                MethodSignature callee = MethodSignature.fromBytecode(owner, name, descriptor,
                        opcode == Opcodes.INVOKESTATIC ? Modifier.STATIC : 0, calleeHierarchy);
                boolean control = false, progress = false, inMonitor = false;
                for (ControlPointUnit.Target t : candidates) {
                    if (t.pointcut().matches(caller, callee)) {
                        sites.merge(t, 1L, Long::sum);
                        if (t.progress()) {
                            progress = true;
                        } else {
                            control = true;
                            inMonitor |= checkMonitor(t, owner, name, descriptor);
                        }
                    }
                }
                if (progress) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, QOS, "progressPoint", "()V", false);
                }
                if (control) {
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, QOS,
                            inMonitor ? "controlPointInMonitor" : "controlPoint", "()V", false);
                }
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        /**
         * Whether the method holds a monitor at this call; reported. A failed check (a class file
         * that cannot be read) counts as not held, as before this check existed.
         */
        private boolean checkMonitor(ControlPointUnit.Target t, String owner, String name, String descriptor) {
            try {
                String callerText = Signatures.fromDescriptor(method.getDeclaringType().asErasure().getInternalName(),
                        method.getInternalName(), method.getDescriptor());
                String calleeText = Signatures.fromDescriptor(owner, name, descriptor);
                if (regions.holdsMonitor(callerText, calleeText)) {
                    report.inMonitor(t, callerText, calleeText);
                    return true;
                }
            } catch (RuntimeException e) {
                // unknown: nothing to report
            }
            return false;
        }
    }
}
