package io.qosweaver.peers;

import static net.bytebuddy.matcher.ElementMatchers.declaresMethod;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.utility.JavaModule;

/**
 * {@code -javaagent:qosweaver-peers-agent.jar=peer=...}: installs one of today's tools into an unmodified
 * Jetty 12 application. It advises {@code Handler.Wrapper#setHandler(Handler)}, where the application's
 * {@code server.setHandler(context)} lands ({@code Server} inherits it and does not override it), and
 * lets {@link Installer} replace or augment the handler before the server sees it.
 *
 * <p>On Jetty 9.4 to 11 ({@code Server.handle(HttpChannel)}, which Jetty 12 does not have), concurrency-limits
 * is taken at that method instead, for every request ({@link JettyChannelLimiter}): applications there may
 * serve from core handlers with no servlet context to put a filter in. Jetty's QoSHandler exists only from
 * Jetty 12 on, so {@code jetty-qos} on such a server says so in one error line and installs nothing.
 *
 * <p>No Jetty class is referenced from here: Jetty is loaded by the application after premain, and the
 * transformer matches it by name only.
 */
public final class PeersAgent {

    static final String PREFIX = "qosweaver-peers: ";
    private static final String WRAPPER = "org.eclipse.jetty.server.Handler$Wrapper";
    private static final String HANDLER = "org.eclipse.jetty.server.Handler";
    private static final String SERVER = "org.eclipse.jetty.server.Server";
    private static final String HTTP_CHANNEL = "org.eclipse.jetty.server.HttpChannel";

    /** What {@link #onChannelHandle} returns for a refused request (public: the advice runs inside Jetty's class). */
    public static final Object REFUSED = JettyChannelLimiter.REFUSED;

    private static volatile JettyChannelLimiter channelLimiter;
    private static volatile boolean channelErrorShown;

    private static volatile PeerArgs configured;

    private PeersAgent() {}

    public static void premain(String args, Instrumentation inst) {
        PeerArgs parsed;
        try {
            parsed = PeerArgs.parse(args);
        } catch (PeerArgs.Invalid e) {
            System.err.println(PREFIX + "error: " + e.getMessage() + "; " + PeerArgs.USAGE);
            System.err.flush();
            // An exception out of premain makes the JVM abort (exit 134, "FATAL ERROR in native method",
            // a stack trace and three assertion lines); a clean exit status 1 after one line is clearer.
            System.exit(1);
            return;
        }
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .type(named(WRAPPER))
                .transform((DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                        JavaModule module, java.security.ProtectionDomain pd) -> builder.visit(
                                Advice.to(SetHandlerAdvice.class).on(named("setHandler").and(takesArguments(1))
                                        .and(takesArgument(0, named(HANDLER))))))
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                            Throwable throwable) {
                        System.err.println(PREFIX + "error: could not instrument " + typeName + ": " + throwable);
                    }
                })
                .installOn(inst);
        installOnChannelServers(parsed, inst);
        configured = parsed;
    }

    /** Jetty 9.4 to 11: the advice on {@code Server.handle(HttpChannel)}, and the install line when it is woven. */
    private static void installOnChannelServers(PeerArgs args, Instrumentation inst) {
        var handle = named("handle").and(takesArguments(1)).and(takesArgument(0, named(HTTP_CHANNEL)));
        boolean limits = args.peer().equals(PeerArgs.CONCURRENCY_LIMITS);
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .type(named(SERVER).and(declaresMethod(handle)))
                .transform((DynamicType.Builder<?> builder, TypeDescription type, ClassLoader loader,
                        JavaModule module, java.security.ProtectionDomain pd) -> limits
                                ? builder.visit(Advice.to(ChannelHandleAdvice.class).on(handle)) : builder)
                .with(new AgentBuilder.Listener.Adapter() {
                    @Override
                    public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                            boolean loaded, DynamicType dynamicType) {
                        if (!limits) {
                            System.err.println(PREFIX + "error: jetty-qos needs Jetty 12's QoSHandler; this server is"
                                    + " Jetty 9.4 to 11 (Server.handle(HttpChannel)), which has none: nothing installed");
                            return;
                        }
                        // made now, not in premain: the library logs through slf4j, which the application brings
                        try {
                            PeerSwitch peerSwitch = PeerSwitch.of(args);
                            JettyChannelLimiter limiter = new JettyChannelLimiter(args, peerSwitch);
                            channelLimiter = limiter;
                            System.err.println(channelInstallLine(limiter));
                            peerSwitch.watch();
                        } catch (Throwable t) {
                            System.err.println(PREFIX + "error: could not install concurrency-limits: " + t);
                        }
                    }

                    @Override
                    public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                            Throwable throwable) {
                        System.err.println(PREFIX + "error: could not instrument " + typeName + ": " + throwable);
                    }
                })
                .installOn(inst);
    }

    static String channelInstallLine(JettyChannelLimiter limiter) {
        return PREFIX + PeerArgs.CONCURRENCY_LIMITS + " installed on Jetty Server.handle(HttpChannel) (Jetty 9.4 to"
                + " 11: every request, before the first handler, by its request path; " + limiter.describe() + ")";
    }

    /** Called at the start of the advised {@code Server.handle(HttpChannel)}: the request's token, or REFUSED. */
    public static Object onChannelHandle(Object channel) {
        JettyChannelLimiter limiter = channelLimiter;
        if (limiter == null) {
            return null;
        }
        try {
            return limiter.enter(channel);
        } catch (Throwable t) {
            if (!channelErrorShown) {
                channelErrorShown = true;
                System.err.println(PREFIX + "error: concurrency-limits let a request through unlimited: "
                        + JettyChannelLimiter.cause(t));
            }
            return null;
        }
    }

    /** Called when the advised {@code Server.handle(HttpChannel)} returns or throws. */
    public static void onChannelHandled(Object token, Throwable thrown) {
        JettyChannelLimiter.exit(token, thrown);
    }

    /** Inlined into Jetty 9.4 to 11's {@code Server.handle(HttpChannel)}; a refused request skips the method. */
    static final class ChannelHandleAdvice {
        private ChannelHandleAdvice() {}

        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean enter(@Advice.Argument(0) Object channel, @Advice.Local("token") Object token) {
            token = onChannelHandle(channel);
            return token == REFUSED;
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class)
        static void exit(@Advice.Local("token") Object token, @Advice.Thrown Throwable thrown) {
            onChannelHandled(token, thrown);
        }
    }

    /** Called by the advised {@code Handler.Wrapper#setHandler}: the handler to set instead. */
    public static Object onSetHandler(Object wrapper, Object handler) {
        PeerArgs args = configured;
        if (args == null || handler == null) {
            return handler;
        }
        return Installer.onSetHandler(args, wrapper, handler);
    }

    /** Inlined at the start of {@code Handler.Wrapper#setHandler(Handler)}. */
    static final class SetHandlerAdvice {
        private SetHandlerAdvice() {}

        @Advice.OnMethodEnter
        static void enter(@Advice.This Object wrapper,
                @Advice.Argument(value = 0, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object handler) {
            handler = onSetHandler(wrapper, handler);
        }
    }
}
