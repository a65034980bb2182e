package io.qosweaver.agent.unit.hooks;

import io.qosweaver.agent.bootstrap.Hooks;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Inserts the idle hooks into one class: {@code Hooks.enter(id)} at the start of every method with
 * code, {@code Hooks.exit(id)} before each of its return instructions, and with {@code calls}
 * {@code Hooks.call(id)} before every call instruction. Each hook pushes one int and calls a
 * static method that consumes it: the operand stack is otherwise untouched, no branch is added
 * and so no stack map frame changes (max stack + 1). Exits by an exception are not hooked: that
 * would need a handler around the body, which is a frame the hook would add.
 *
 * <p>Skipped, as the profiling probe skips them: abstract and native methods (no code), synthetic
 * methods and bridges (compiler-made), {@code invokedynamic} and calls on arrays. Constructors
 * and static initializers are hooked (their entry hook comes before the {@code super(..)} call,
 * which the verifier allows for a static call on an int).
 */
final class HookInserter implements AsmVisitorWrapper {
    static final String HOOKS = Hooks.class.getName().replace('.', '/');
    /** Join point numbers, unique in the JVM (a class woven again gets new ones). */
    private static final AtomicInteger NEXT_ID = new AtomicInteger();

    private final boolean calls;
    private final String classKey;
    private final WeavingStats.PointcutStats executions;
    private final WeavingStats.PointcutStats callSites;
    private final WeavingStats.PointcutStats hookSites;

    HookInserter(boolean calls, String classKey, WeavingStats.PointcutStats executions,
            WeavingStats.PointcutStats callSites, WeavingStats.PointcutStats hookSites) {
        this.calls = calls;
        this.classKey = classKey;
        this.executions = executions;
        this.callSites = callSites;
        this.hookSites = hookSites;
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
        return new ClassVisitor(OpenedClassReader.ASM_API, classVisitor) {
            long methodsHooked;
            long callsHooked;
            long sites;

            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                    String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                if (mv == null || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC
                        | Opcodes.ACC_BRIDGE)) != 0) {
                    return mv;
                }
                methodsHooked++;
                return new MethodVisitor(OpenedClassReader.ASM_API, mv) {
                    private final int execution = NEXT_ID.getAndIncrement();

                    @Override
                    public void visitCode() {
                        super.visitCode();
                        hook("enter", execution);
                    }

                    @Override
                    public void visitInsn(int opcode) {
                        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
                            hook("exit", execution);
                        }
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name, String descriptor,
                            boolean isInterface) {
                        if (calls && owner.charAt(0) != '[' && !owner.equals(HOOKS)) {
                            callsHooked++;
                            hook("call", NEXT_ID.getAndIncrement());
                        }
                        super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
                    }

                    @Override
                    public void visitMaxs(int maxStack, int maxLocals) {
                        super.visitMaxs(maxStack + 1, maxLocals);
                    }

                    private void hook(String kind, int id) {
                        if (id >= Short.MIN_VALUE && id <= Short.MAX_VALUE) {
                            super.visitIntInsn(id <= Byte.MAX_VALUE ? Opcodes.BIPUSH : Opcodes.SIPUSH, id);
                        } else {
                            super.visitLdcInsn(id);
                        }
                        super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOKS, kind, "(I)V", false);
                        sites++;
                    }
                };
            }

            @Override
            public void visitEnd() {
                executions.woven(classKey, methodsHooked);
                callSites.woven(classKey, callsHooked);
                hookSites.woven(classKey, sites);
                super.visitEnd();
            }
        };
    }
}
