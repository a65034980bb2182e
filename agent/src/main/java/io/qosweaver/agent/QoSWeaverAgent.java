package io.qosweaver.agent;

import io.qosweaver.agent.startup.AgentStarter;
import java.lang.instrument.Instrumentation;

/**
 * The {@code Premain-Class} and {@code Agent-Class}. Like the OpenTelemetry agent, it only keeps
 * the {@link Instrumentation} and hands off: this class must not reference any scheduler class,
 * because the scheduler is not on the bootstrap class path until {@link AgentStarter} puts it
 * there.
 */
public final class QoSWeaverAgent {
    private static volatile Instrumentation instrumentation;

    private QoSWeaverAgent() {}

    /** {@code -javaagent:qosweaver-agent.jar=policy=FILE[,metricsPort=N][,failOpen=true]}. */
    public static void premain(String args, Instrumentation inst) {
        instrumentation = inst;
        try {
            AgentStarter.start(args, inst);
        } catch (RuntimeException e) {
            // A broken policy file or bad arguments at start-up: the message naming the file, line
            // and problem is already printed. A clean exit status 1 beats the JVM's abort (exit 134,
            // "FATAL ERROR in native method") that an exception out of premain causes.
            System.exit(1);
        }
    }

    /**
     * Attach to a running JVM (same arguments). A broken policy throws back to the attaching side;
     * the running application is never stopped by it.
     */
    public static void agentmain(String args, Instrumentation inst) {
        instrumentation = inst;
        AgentStarter.start(args, inst);
    }

    public static Instrumentation instrumentation() {
        return instrumentation;
    }
}
