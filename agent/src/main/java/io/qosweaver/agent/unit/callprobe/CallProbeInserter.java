package io.qosweaver.agent.unit.callprobe;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.model.signature.Signatures;
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
    final AtomicLong callSites = new AtomicLong();

    CallProbeInserter(SignatureTable table) {
        this.table = table;
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
                int callerId = table.intern(Signatures.fromDescriptor(owner, name, descriptor));
                return new Probe(mv, callerId);
            }
        };
    }

    private final class Probe extends MethodVisitor {
        private final int callerId;
        private boolean woven;

        Probe(MethodVisitor mv, int callerId) {
            super(OpenedClassReader.ASM_API, mv);
            this.callerId = callerId;
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (owner.charAt(0) != '[' && !owner.equals(PROFILER)) {
                int calleeId = table.intern(Signatures.fromDescriptor(owner, name, descriptor));
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
