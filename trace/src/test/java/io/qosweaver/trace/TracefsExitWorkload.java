package io.qosweaver.trace;

import java.nio.file.Path;
import java.util.Map;

/**
 * The child JVM of {@link TracefsTraceTest}: traces itself with the OS level from tracefs, then
 * exits without closing the tracer (its shutdown hooks must remove the tracefs instance).
 */
public final class TracefsExitWorkload {
    public static void main(String[] args) throws Exception {
        Tracer.start(TraceOptions.parse(Map.of("trace", args[0], "traceLevels", "os", "traceOs", "tracefs",
                "traceHtml", "false")), System.err::println);
        Thread.sleep(300);
        System.exit(0);
    }
}
