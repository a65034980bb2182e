package io.qosweaver.cli.run;

import java.lang.instrument.Instrumentation;

/** A do-nothing java agent, packed into a jar by {@link RunCommandTest} to stand in for ours. */
public final class NoopAgent {
    private NoopAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        System.err.println("noop agent: " + args);
    }
}
