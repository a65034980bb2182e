package io.qosweaver.trace.timeline;

import java.util.Locale;

/** The levels of the timeline, each a source of its own; a thread shows one track per level. */
public enum Level {
    /** Thread states and CPU from /proc (running, waiting for a CPU, sleeping, blocked in I/O). */
    OS("OS state"),
    /** JFR: monitor enter and wait, park, GC pauses, thread names and ids. */
    JVM("JVM"),
    /** The scheduler's decisions: enter, yield, suspension, resume, limits. */
    SCHEDULER("scheduler"),
    /** Requests with their task class, method and path, on the thread's own track. */
    APP("requests"),
    /**
     * The server's phases: connection accept and close, TLS handshakes, parsing, service, keep-alive
     * idle (woven into Jetty 9.4 to 12, Tomcat NIO and Undertow 2).
     */
    SERVER("server"),
    /** User events: the policy file's {@code trace.events} pointcuts and the application's {@code io.qosweaver.api.Trace}. */
    USER("user events");

    private final String trackName;

    Level(String trackName) {
        this.trackName = trackName;
    }

    /** The name of the thread's child track of this level. */
    public String trackName() {
        return trackName;
    }

    /** The name used in options ({@code os}, {@code jvm}, {@code scheduler}, {@code app}, {@code server}, {@code user}). */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
