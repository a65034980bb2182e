package io.qosweaver.peers;

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
 * <p>No Jetty class is referenced from here: Jetty is loaded by the application after premain, and the
 * transformer matches it by name only.
 */
public final class PeersAgent {

    static final String PREFIX = "qosweaver-peers: ";
    private static final String WRAPPER = "org.eclipse.jetty.server.Handler$Wrapper";
    private static final String HANDLER = "org.eclipse.jetty.server.Handler";

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
        configured = parsed;
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
