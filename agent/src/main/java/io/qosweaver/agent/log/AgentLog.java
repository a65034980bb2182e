package io.qosweaver.agent.log;

import java.io.PrintStream;

/** Everything the agent says goes to stderr with the {@code [qosweaver]} prefix the bench parses. */
public final class AgentLog {
    private final PrintStream out;
    private final boolean debug;

    public AgentLog(PrintStream out, boolean debug) {
        this.out = out;
        this.debug = debug;
    }

    public static AgentLog stderr(boolean debug) {
        return new AgentLog(System.err, debug);
    }

    public void info(String msg) {
        out.println("[qosweaver] " + msg);
    }

    public void warn(String msg) {
        out.println("[qosweaver] WARNING " + msg);
    }

    public void error(String msg) {
        out.println("[qosweaver] ERROR " + msg);
    }

    public void debug(String msg) {
        if (debug) {
            out.println("[qosweaver] debug " + msg);
        }
    }

    /** A warning meant to be seen in a wall of server logs. */
    public void loud(String msg) {
        String bar = "[qosweaver] " + "!".repeat(78);
        out.println(bar);
        out.println("[qosweaver] WARNING " + msg);
        out.println(bar);
    }
}
