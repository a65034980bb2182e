package io.qosweaver.agent;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.bootstrap.ServletTaskClasses;
import io.qosweaver.agent.pointcut.Pointcut;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * The weaving of one policy file: one matcher-plus-transformer unit per entry pointcut, one for
 * servlet-path task classes, one for all control points, installed as a single resettable
 * transformer with retransformation, so that classes already loaded are woven too and a later
 * policy swap can {@link #reset()} them back to their original bytecode.
 *
 * <p>Filtered instrumentation (the dynamic-weaving paper): a type is transformed only if one of
 * the policy's pointcuts can select a join point in it, and inside it only the selected methods
 * get advice and only the selected call sites get a control point.
 */
public final class Weaving {
    private final Instrumentation inst;
    private final ResettableClassFileTransformer transformer;
    private final WeavingStats stats;

    private Weaving(Instrumentation inst, ResettableClassFileTransformer transformer, WeavingStats stats) {
        this.inst = inst;
        this.transformer = transformer;
        this.stats = stats;
    }

    public WeavingStats stats() {
        return stats;
    }

    /** Removes the transformer and retransforms every woven class back to its original bytes. */
    public boolean reset() {
        return transformer.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
    }

    /** Classes the agent must never weave: itself, the scheduler, Byte Buddy, the JDK's plumbing. */
    static ElementMatcher.Junction<TypeDescription> ignored() {
        return nameStartsWith("io.qosweaver.agent.")
                .or(nameStartsWith("io.qosweaver.scheduler."))
                .or(nameStartsWith("net.bytebuddy."))
                .or(nameStartsWith("java.lang.invoke."))
                .or(nameStartsWith("jdk.internal."))
                .or(nameStartsWith("sun.instrument."))
                .or(nameStartsWith("com.sun.proxy."))
                .or(isSynthetic());
    }

    public static Weaving install(Instrumentation inst, PolicyFile policy, AgentLog log) {
        WeavingStats stats = new WeavingStats();
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(new Listener(stats, log))
                .ignore(ignored());
        builder = readEdges(builder, inst);

        List<String> servletPatterns = new ArrayList<>();
        List<String> servletTaskClasses = new ArrayList<>();
        String servletLocation = null;
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            if (t.entry() != null) {
                builder = entry(builder, t, stats.add("entry", t.location(), t.entryText()));
            } else {
                servletPatterns.add(t.servletPath());
                servletLocation = servletLocation == null ? t.location() : servletLocation;
                servletTaskClasses.add(t.name());
            }
        }
        if (!servletPatterns.isEmpty()) {
            ServletTaskClasses.configure(servletPatterns.toArray(new String[0]), servletTaskClasses.toArray(new String[0]));
            builder = servlets(builder, stats.add("servlet", servletLocation,
                    "Servlet.service(ServletRequest, ServletResponse) for " + servletPatterns));
        }
        if (!policy.controlPoints().isEmpty()) {
            List<ControlPointWeaving.Target> targets = new ArrayList<>();
            for (PolicyFile.ControlPointDef cp : policy.controlPoints()) {
                targets.add(new ControlPointWeaving.Target(cp.pointcut(),
                        stats.add("controlPoint", cp.location(), cp.text())));
            }
            ControlPointWeaving wrapper = new ControlPointWeaving(targets);
            builder = builder.type(types(targets.stream().map(ControlPointWeaving.Target::pointcut).toList()))
                    .transform((b, type, loader, module, pd) -> b.visit(wrapper));
        }
        return new Weaving(inst, builder.installOn(inst), stats);
    }

    /**
     * Woven code in named modules (for example JDK classes chosen by a withincode) calls into the
     * scheduler and the bootstrap helpers, which sit in the bootstrap loader's unnamed module.
     */
    private static AgentBuilder readEdges(AgentBuilder builder, Instrumentation inst) {
        try {
            return builder.assureReadEdgeTo(inst, Class.forName("io.qosweaver.scheduler.QoS", false, null),
                    ServletTaskClasses.class);
        } catch (ClassNotFoundException e) {
            // in-process tests: the scheduler is on the class path, not the bootstrap path
            return builder.assureReadEdgeTo(inst, io.qosweaver.scheduler.QoS.class, ServletTaskClasses.class);
        }
    }

    private static AgentBuilder entry(AgentBuilder builder, PolicyFile.TaskClassDef t, WeavingStats.PointcutStats s) {
        Pointcut p = t.entry();
        ElementMatcher.Junction<MethodDescription> methods = isMethod().and(not(isAbstract()))
                .and(new ElementMatcher.Junction.AbstractBase<MethodDescription>() {
                    @Override
                    public boolean matches(MethodDescription m) {
                        try {
                            return p.matches(Hierarchies.signature(m), null);
                        } catch (RuntimeException e) {
                            return false;
                        }
                    }
                });
        var visitor = Advice.withCustomMapping()
                .bind(EntryAdvice.TaskClassName.class, t.name())
                .to(EntryAdvice.class)
                .on(methods);
        return builder.type(types(List.of(p))).transform((b, type, loader, module, pd) -> {
            s.joinPoints.addAndGet(type.getDeclaredMethods().filter(methods).size());
            return b.visit(visitor);
        });
    }

    private static AgentBuilder servlets(AgentBuilder builder, WeavingStats.PointcutStats s) {
        ElementMatcher.Junction<MethodDescription> service = named("service")
                .and(takesArguments(2))
                .and(takesArgument(0, named("jakarta.servlet.ServletRequest"))
                        .or(takesArgument(0, named("javax.servlet.ServletRequest"))))
                .and(not(isAbstract()));
        var visitor = Advice.to(ServletAdvice.class).on(service);
        ElementMatcher.Junction<TypeDescription> types = not(isInterface())
                .and(new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
                    @Override
                    public boolean matches(TypeDescription t) {
                        return !t.getDeclaredMethods().filter(service).isEmpty();
                    }
                });
        return builder.type(types).transform((b, type, loader, module, pd) -> {
            s.joinPoints.addAndGet(type.getDeclaredMethods().filter(service).size());
            return b.visit(visitor);
        });
    }

    /** A type can hold a join point of one of these pointcuts. */
    static ElementMatcher.Junction<TypeDescription> types(List<Pointcut> pointcuts) {
        return new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                try {
                    var h = Hierarchies.of(t);
                    for (Pointcut p : pointcuts) {
                        if (p.matchesType(t.getName(), h) != Pointcut.Tri.FALSE) {
                            return true;
                        }
                    }
                    return false;
                } catch (RuntimeException e) {
                    return false;
                }
            }
        };
    }

    private static final class Listener extends AgentBuilder.Listener.Adapter {
        private final WeavingStats stats;
        private final AgentLog log;

        Listener(WeavingStats stats, AgentLog log) {
            this.stats = stats;
            this.log = log;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                DynamicType dynamicType) {
            stats.classesWoven.incrementAndGet();
            log.debug("woven " + type.getName());
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
            // the class loads unwoven: the application goes on, unscheduled where this class runs
            long n = stats.errors.incrementAndGet();
            if (n <= 20) {
                log.warn("could not weave " + typeName + ": " + t);
            }
        }
    }
}
