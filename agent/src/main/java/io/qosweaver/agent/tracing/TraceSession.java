package io.qosweaver.agent.tracing;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.trace.TraceOptions;
import io.qosweaver.trace.Tracer;
import java.io.IOException;

/**
 * Starts the tracer ({@code qosweaver trace}) from the agent's arguments. Links trace types, which
 * live on the bootstrap class path: called only once the bootstrap jar is appended.
 */
public final class TraceSession {
    private TraceSession() {}

    /**
     * Starts tracing as {@code rawArgs} ask and returns the arguments left for the scheduling
     * agent (empty when only a trace was asked for).
     *
     * @throws IllegalArgumentException bad trace arguments, an unwritable file, or a trace already
     *     running; the message says which
     */
    public static String start(String rawArgs, AgentLog log) {
        TraceOptions.Split split = TraceOptions.split(rawArgs);
        if (split.options() == null) {
            return split.rest();
        }
        try {
            Tracer.start(split.options(), log::info);
        } catch (IOException | IllegalStateException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return split.rest();
    }
}
