package io.qosweaver.agent;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import io.qosweaver.agent.bootstrap.Profiler;
import io.qosweaver.pointcuts.Signatures;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * The profiling aspect: before every call instruction ({@code invokevirtual}, {@code invokespecial},
 * {@code invokestatic}, {@code invokeinterface}) of every method of the included packages, it
 * inserts {@code Profiler.record(callerId, calleeId)} with both signatures interned here, at weave
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
final class ProfileWeaving implements AsmVisitorWrapper {
    static final String PROFILER = Profiler.class.getName().replace('.', '/');

    /** Weave-time interning: id to canonical signature; the writer maps ids to the file's own. */
    static final class SignatureTable {
        private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
        private final List<String> names = new ArrayList<>();

        int intern(String signature) {
            Integer id = ids.get(signature);
            if (id != null) {
                return id;
            }
            synchronized (names) {
                return ids.computeIfAbsent(signature, s -> {
                    names.add(s);
                    return names.size() - 1;
                });
            }
        }

        String name(int id) {
            synchronized (names) {
                return names.get(id);
            }
        }

        int size() {
            synchronized (names) {
                return names.size();
            }
        }
    }

    private final SignatureTable table;
    final AtomicLong callSites = new AtomicLong();
    final AtomicLong classes = new AtomicLong();
    /** Of {@link #classes}: those already loaded when the probe was installed (retransformed). */
    final AtomicLong retransformed = new AtomicLong();
    final AtomicLong errors = new AtomicLong();

    ProfileWeaving(SignatureTable table) {
        this.table = table;
    }

    /**
     * The classes whose methods get the probe: in an included package, never in a denied one, and
     * JDK classes only through an include that names their JDK name space ({@link ProfileScope}).
     */
    static ElementMatcher.Junction<TypeDescription> types(List<String> include) {
        // interfaces too: their default and static methods have code
        return new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                return ProfileScope.profiled(t.getName(), include);
            }
        };
    }

    static ResettableClassFileTransformer install(Instrumentation inst, List<String> include, ProfileWeaving wrapper,
            AgentLog log) {
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                            boolean loaded, DynamicType dynamicType) {
                        wrapper.classes.incrementAndGet();
                        if (loaded) {
                            wrapper.retransformed.incrementAndGet();
                        }
                        log.debug("profiled " + type.getName() + (loaded ? " (retransformed)" : ""));
                    }

                    @Override
                    public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable t) {
                        if (wrapper.errors.incrementAndGet() <= 20) {
                            log.warn("could not weave the profiling probe into " + typeName + " (its calls are not"
                                    + " recorded): " + t);
                        }
                    }
                })
                .ignore(Weaving.ignored().or(nameStartsWith("io.qosweaver.pointcuts.")).or(nameStartsWith("io.qosweaver.cli.")));
        // Woven classes of named modules (JDK packages such as sun.java2d.marlin in java.desktop)
        // call Profiler, which is in the bootstrap loader's unnamed module: a named module does not
        // read it, so each woven class's module gets a read edge (Instrumentation.redefineModule)
        // when it is transformed, at load time or on retransformation of a class already loaded.
        try {
            builder = builder.assureReadEdgeTo(inst, Class.forName(Profiler.class.getName(), false, null));
        } catch (ClassNotFoundException e) {
            builder = builder.assureReadEdgeTo(inst, Profiler.class); // in-process tests: not on the bootstrap path
        }
        return builder.type(types(include))
                .transform((b, type, loader, module, pd) -> b.visit(wrapper))
                .installOn(inst);
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
