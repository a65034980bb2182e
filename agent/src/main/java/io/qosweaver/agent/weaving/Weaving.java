package io.qosweaver.agent.weaving;

import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import io.qosweaver.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs a list of {@link InstrumentationUnit}s, by a loop, as one resettable transformer with
 * retransformation, so that classes already loaded are woven too and {@link #reset()} puts every
 * woven class back to its original bytecode (a policy swap, or unweaving).
 *
 * <p>Filtered instrumentation (the dynamic-weaving paper): a type is transformed only if a unit's
 * matcher selects it, and inside it a unit changes only what its pointcut selects. No class format
 * changes, so classes already loaded can be retransformed.
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
    public static ElementMatcher.Junction<TypeDescription> ignored() {
        return nameStartsWith("io.qosweaver.agent.")
                .or(nameStartsWith("io.qosweaver.scheduler."))
                .or(nameStartsWith("io.qosweaver.platform."))
                .or(nameStartsWith("net.bytebuddy."))
                .or(nameStartsWith("java.lang.invoke."))
                .or(nameStartsWith("jdk.internal."))
                .or(nameStartsWith("sun.instrument."))
                .or(nameStartsWith("com.sun.proxy."))
                .or(isSynthetic());
    }

    /**
     * Installs the units.
     *
     * @param ignore types never to weave, besides {@link #ignored()}
     * @param listener told of every transformation and error (counted into {@code stats} too)
     * @param readEdgesTo classes of the bootstrap helpers woven code calls: every woven class's
     *     module gets a read edge to theirs (JDK classes in named modules selected by a pointcut)
     */
    public static Weaving install(Instrumentation inst, List<InstrumentationUnit> units, WeavingStats stats,
            ElementMatcher<? super TypeDescription> ignore, AgentBuilder.Listener listener, AgentLog log,
            Class<?>... readEdgesTo) {
        AgentBuilder builder = new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(new AgentBuilder.Listener.Compound(new Counting(stats, log), listener))
                .ignore(ignored().or(ignore));
        if (readEdgesTo.length > 0) {
            builder = builder.assureReadEdgeTo(inst, readEdgesTo);
        }
        for (InstrumentationUnit unit : units) {
            builder = builder.type(unit.types()).transform(unit.transformer());
            log.debug("weaving unit: " + unit.name());
        }
        return new Weaving(inst, builder.installOn(inst), stats);
    }

    /**
     * The bootstrap copy of a helper class when the agent put it there, else the one given (the
     * in-process tests, where helpers stay on the class path).
     */
    public static Class<?> bootstrapCopy(Class<?> helper) {
        try {
            return Class.forName(helper.getName(), false, null);
        } catch (ClassNotFoundException e) {
            return helper;
        }
    }

    /** Counts woven classes and errors; an error leaves the class unwoven and the application going. */
    private static final class Counting extends AgentBuilder.Listener.Adapter {
        private final WeavingStats stats;
        private final AgentLog log;

        Counting(WeavingStats stats, AgentLog log) {
            this.stats = stats;
            this.log = log;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module, boolean loaded,
                DynamicType dynamicType) {
            stats.transformed(WeavingStats.classKey(type.getName(), loader), loaded);
            log.debug("woven " + type.getName() + (loaded ? " (retransformed)" : ""));
        }

        @Override
        public void onError(String typeName, ClassLoader loader, JavaModule module, boolean loaded, Throwable t) {
            long n = stats.errors.incrementAndGet();
            if (n <= 20) {
                log.warn("could not weave " + typeName + " (it runs unwoven): " + t);
            }
        }
    }
}
