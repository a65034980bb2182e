package io.qosweaver.agent.weaving;

import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.qosweaver.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs a list of {@link InstrumentationUnit}s, by a loop, as one resettable transformer with
 * retransformation, so that classes already loaded are woven too and {@link #reset()} puts every
 * woven class back to its original bytecode (a policy swap, or unweaving).
 *
 * <p>Retransformation is what a change at run time costs: every {@code retransformClasses} call is
 * a safepoint operation, and the JIT throws away compiled code that inlined a retransformed
 * method. So classes go in few, large batches ({@link #BATCH}: 128; the system property
 * {@code qosweaver.retransformBatch} changes it), and only the classes this weaving
 * actually wove are retransformed back (their keys are in its {@link WeavingStats}), never a scan
 * of every loaded class against the matchers.
 *
 * <p>Filtered instrumentation (the dynamic-weaving paper): a type is transformed only if a unit's
 * matcher selects it, and inside it a unit changes only what its pointcut selects. No class format
 * changes, so classes already loaded can be retransformed.
 */
public final class Weaving {
    /**
     * Classes per {@code retransformClasses} call. Each call is one safepoint operation, and under
     * load reaching the safepoint is what costs: every runnable thread must get a CPU to reach its
     * poll (with 40 chart threads on 2 cores, about 150 ms a safepoint by the swap runs of
     * 2026-11-25), while the pause itself grows only slowly with the classes in it (the JVM walks
     * every loaded class once per call, not per class). So one call for the classes of most
     * policies (the river monitor's: 24), and a bound on the pause for very large ones.
     */
    static final int BATCH = Math.max(1, Integer.getInteger("qosweaver.retransformBatch", 128));

    private final Instrumentation inst;
    private final ResettableClassFileTransformer transformer;
    private final WeavingStats stats;
    private final AgentLog log;

    private Weaving(Instrumentation inst, ResettableClassFileTransformer transformer, WeavingStats stats, AgentLog log) {
        this.inst = inst;
        this.transformer = transformer;
        this.stats = stats;
        this.log = log;
    }

    public WeavingStats stats() {
        return stats;
    }

    /** Removes the transformer and retransforms every class it wove back to its original bytes. */
    public boolean reset() {
        detach();
        return retransform(loaded(stats.classKeys(), Set.of()));
    }

    /**
     * Retransforms every class this weaving wove that is loaded, giving them the same hooks again:
     * for a transformer added after this one, which sees a class only when it is defined.
     */
    public boolean retransformAgain() {
        return retransform(loaded(stats.classKeys(), Set.of()));
    }

    /**
     * Removes the transformer without retransforming: classes keep these hooks until they are
     * retransformed (by the next weaving's installation, then {@link #restoreLeftovers}).
     */
    public void detach() {
        transformer.reset(inst, AgentBuilder.RedefinitionStrategy.DISABLED);
    }

    /**
     * After {@link #detach()} and the installation of {@code next}: the classes this weaving wove
     * that {@code next} did not (its installation retransformed the others, once) go back to their
     * original bytes.
     *
     * @return how many classes were retransformed, negated if the JVM refused one
     */
    public int restoreLeftovers(Weaving next) {
        List<Class<?>> leftovers = loaded(stats.classKeys(), next.stats.classKeys());
        return retransform(leftovers) ? leftovers.size() : -leftovers.size();
    }

    /** Loaded classes whose key is in {@code keys} and not in {@code except}. */
    private List<Class<?>> loaded(Set<String> keys, Set<String> except) {
        List<Class<?>> out = new ArrayList<>();
        if (keys.isEmpty()) {
            return out;
        }
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isPrimitive()) {
                continue;
            }
            String key = WeavingStats.classKey(c.getName(), c.getClassLoader());
            if (keys.contains(key) && !except.contains(key) && inst.isModifiableClass(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** In batches; a batch the JVM refuses is retried class by class so that one class cannot hold back the rest. */
    private boolean retransform(List<Class<?>> classes) {
        boolean all = true;
        for (int i = 0; i < classes.size(); i += BATCH) {
            List<Class<?>> batch = classes.subList(i, Math.min(classes.size(), i + BATCH));
            try {
                inst.retransformClasses(batch.toArray(new Class<?>[0]));
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                for (Class<?> c : batch) {
                    try {
                        inst.retransformClasses(c);
                    } catch (UnmodifiableClassException | RuntimeException | LinkageError one) {
                        all = false;
                        log.warn("could not retransform " + c.getName() + " back to its original bytes: " + one);
                    }
                }
            }
        }
        return all;
    }

    /**
     * A class loader whose classes no weaving touches: it defines copies of classes, original and
     * woven, to measure them (the hooks mode's metaspace cost), and they must stay as given.
     */
    public interface NeverWoven {}

    /** Classes the agent must never weave: itself (but {@link RehearsalTarget}), the scheduler, Byte Buddy, the JDK's plumbing. */
    public static ElementMatcher.Junction<TypeDescription> ignored() {
        return nameStartsWith("io.qosweaver.agent.").and(not(named(RehearsalTarget.class.getName())))
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
                .with(AgentBuilder.RedefinitionStrategy.BatchAllocator.ForFixedSize.ofSize(BATCH))
                // A class loaded while the loaded ones are retransformed (Byte Buddy resolving a nested
                // class of one it transforms, on the same thread) is neither in the first list nor seen
                // by the transformer at its load: discover again until nothing new (Jetty 12's
                // HttpConnection$RequestHandler, attached before the server's first request, stayed unwoven).
                .with(AgentBuilder.RedefinitionStrategy.DiscoveryStrategy.Reiterating.INSTANCE)
                // the units only add visitors and inlined advice: decorate the type, never rebase it
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(AgentBuilder.DescriptionStrategy.Default.HYBRID)
                .with(new AgentBuilder.Listener.Compound(new Counting(stats, log), listener))
                .ignore(ignored().or(ignore))
                .or(ElementMatchers.any(), new ElementMatcher.Junction.AbstractBase<ClassLoader>() {
                    @Override
                    public boolean matches(ClassLoader loader) {
                        return loader instanceof NeverWoven;
                    }
                });
        if (readEdgesTo.length > 0) {
            builder = builder.assureReadEdgeTo(inst, readEdgesTo);
        }
        for (InstrumentationUnit unit : units) {
            builder = builder.type(unit.types()).transform(unit.transformer());
            log.debug("weaving unit: " + unit.name());
        }
        return new Weaving(inst, builder.installOn(inst), stats, log);
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
