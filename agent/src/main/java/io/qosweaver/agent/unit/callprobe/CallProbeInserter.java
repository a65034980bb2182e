package io.qosweaver.agent.unit.callprobe;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.model.signature.Signatures;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * The profiling aspect: before every call instruction ({@code invokevirtual}, {@code invokespecial},
 * {@code invokestatic}, {@code invokeinterface}) of every method of the included packages, it
 * inserts {@code CallProbe.record(callerId, calleeId)} with both signatures interned here, at weave
 * time, in the canonical form of {@link Signatures}. The callee is the method the instruction names
 * (its owner is the static type written in the bytecode, as {@code call(..)} pointcuts match it),
 * so calls into the JDK and other libraries are recorded too.
 *
 * <p>Not woven: synthetic methods (bridges, which only forward, and lambda bodies, whose names
 * {@code lambda$m$0} change between compilations and cannot be named by a stable pointcut),
 * {@code invokedynamic} (lambda creation, string concatenation: not method calls in the source),
 * calls on arrays ({@code int[].clone()}). Constructors and static initializers are woven as
 * callers and {@code <init>} as a callee: they take time, and the generator never proposes them.
 *
 * <p>Like the control points, the probe only adds to the operand stack (two ints, consumed by the
 * probe) between two instructions: no frame changes, max stack + 2.
 */
final class CallProbeInserter implements AsmVisitorWrapper {
    static final String PROFILER = CallProbe.class.getName().replace('.', '/');

    private final SignatureTable table;
    private final SynchronizedRegions regions;
    final AtomicLong callSites;

    CallProbeInserter(SignatureTable table) {
        this(table, SynchronizedRegions.NONE, new AtomicLong());
    }

    private CallProbeInserter(SignatureTable table, SynchronizedRegions regions, AtomicLong callSites) {
        this.table = table;
        this.regions = regions;
        this.callSites = callSites;
    }

    /**
     * This inserter for the classes of one transformation, telling the table which woven calls are
     * made with a monitor held, from those classes' files ({@code regions}); counters shared.
     */
    CallProbeInserter withRegions(SynchronizedRegions regions) {
        return new CallProbeInserter(table, regions, callSites);
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
            FieldList<FieldDescription.InDefinedShape> fields, MethodList<?> methods, int writerFlags,
            int readerFlags) {
        String owner = instrumentedType.getInternalName();
        return new ClassVisitor(OpenedClassReader.ASM_API, classVisitor) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (mv == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC
                        | Opcodes.ACC_BRIDGE)) != 0) {
                    return mv;
                }
                String caller = Signatures.fromDescriptor(owner, name, descriptor);
                return new Probe(mv, caller, table.intern(caller), (access & Opcodes.ACC_SYNCHRONIZED) != 0);
            }
        };
    }

    private final class Probe extends MethodVisitor {
        private final String caller;
        private final int callerId;
        /** A synchronized method, or one with a monitorenter: its calls are checked at the end. */
        private boolean monitors;
        private final Set<String> callees = new LinkedHashSet<>();
        private boolean woven;

        Probe(MethodVisitor mv, String caller, int callerId, boolean synchronizedMethod) {
            super(OpenedClassReader.ASM_API, mv);
            this.caller = caller;
            this.callerId = callerId;
            this.monitors = synchronizedMethod;
        }

        @Override
        public void visitInsn(int opcode) {
            monitors |= opcode == Opcodes.MONITORENTER;
            super.visitInsn(opcode);
        }

        @Override
        public void visitEnd() {
            if (monitors) {
                try {
                    for (String callee : callees) {
                        if (regions.holdsMonitor(caller, callee)) {
                            table.inMonitor(caller, callee);
                        }
                    }
                } catch (RuntimeException e) {
                    // an unreadable class file: nothing recorded, the generator may still be given a class path
                }
            }
            super.visitEnd();
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (owner.charAt(0) != '[' && !owner.equals(PROFILER)) {
                String callee = Signatures.fromDescriptor(owner, name, descriptor);
                callees.add(callee);
                int calleeId = table.intern(callee);
                push(callerId);
                push(calleeId);
                super.visitMethodInsn(Opcodes.INVOKESTATIC, PROFILER, "record", "(II)V", false);
                callSites.incrementAndGet();
                woven = true;
            }
            super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(woven ? maxStack + 2 : maxStack, maxLocals);
        }

        private void push(int v) {
            if (v >= -1 && v <= 5) {
                super.visitInsn(Opcodes.ICONST_0 + v);
            } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
                super.visitIntInsn(Opcodes.BIPUSH, v);
            } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
                super.visitIntInsn(Opcodes.SIPUSH, v);
            } else {
                super.visitLdcInsn(v);
            }
        }
    }
}
