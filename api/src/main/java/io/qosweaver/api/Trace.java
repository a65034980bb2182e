package io.qosweaver.api;

import io.qosweaver.api.internal.TraceBridge;

/**
 * User events for the agent's tracer ({@code qosweaver trace}): named slices and instants on the
 * calling thread's {@code user events} track, on the trace's one clock with every other level.
 * Without the agent, or while no trace with the {@code user} level runs, every call is a no-op
 * (without the agent an empty call the JIT removes; with it one volatile read). Nothing
 * allocates: pass constant names.
 *
 * <pre>{@code
 * Trace.event("cache flushed");                 // an instant
 * try (Trace.Span s = Trace.span("render")) {   // a slice, ended however the block ends
 *     ...
 * }
 * Trace.begin("batch"); ... Trace.end();        // the same, by hand (end closes the innermost)
 * }</pre>
 */
public final class Trace {
    private Trace() {}

    /** Ends the slice it began; one shared instance, so a span allocates nothing. */
    public static final class Span implements AutoCloseable {
        private Span() {}

        @Override
        public void close() {
            end();
        }
    }

    private static final Span SPAN = new Span();

    /** An instant named {@code name} on this thread. */
    public static void event(String name) {
        TraceBridge.event(name);
    }

    /** A slice named {@code name} begins on this thread; {@link #end()} ends it. */
    public static void begin(String name) {
        TraceBridge.begin(name);
    }

    /** Ends the innermost slice this thread began. */
    public static void end() {
        TraceBridge.end();
    }

    /** {@link #begin} now, {@link #end} when the returned span is closed (try-with-resources). */
    public static Span span(String name) {
        TraceBridge.begin(name);
        return SPAN;
    }
}
