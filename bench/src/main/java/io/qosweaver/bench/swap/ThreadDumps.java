package io.qosweaver.bench.swap;

import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's own view of parked threads (a {@link io.qosweaver.bench.app.ThreadDump}), beside the scheduler's
 * counter: a thread the scheduler forgot (an old scheduler replaced by a swap, or one uninstalled
 * by an unweave) is invisible to the new scheduler's counter, but not to the thread dump.
 */
final class ThreadDumps {
    private ThreadDumps() {
    }

    /**
     * The names of threads parked or waiting inside QoSWeaver code while running application or
     * server code: a waiting thread with a frame of {@code io.qosweaver} above a frame that is not
     * the JDK's ({@code java.}, {@code jdk.}, {@code sun.}) nor QoSWeaver's. The agent's own threads
     * (control, metrics) wait in QoSWeaver code too, but run nothing else.
     */
    static List<String> parkedInQosweaver(String dump) {
        List<String> out = new ArrayList<>();
        for (String block : dump.split("\\R\\s*\\R")) {
            String b = block.strip();
            if (!b.startsWith("\"")) {
                continue;
            }
            boolean waiting = b.contains("java.lang.Thread.State: WAITING")
                    || b.contains("java.lang.Thread.State: TIMED_WAITING");
            boolean inQos = false;
            boolean appBelow = false;
            for (String line : b.split("\\R")) {
                String l = line.strip();
                if (!l.startsWith("at ")) {
                    continue;
                }
                String frame = l.substring(3);
                if (frame.startsWith("io.qosweaver.")) {
                    inQos = true;
                } else if (inQos && !frame.startsWith("java.") && !frame.startsWith("jdk.")
                        && !frame.startsWith("sun.")) {
                    appBelow = true;
                    break;
                }
            }
            if (waiting && appBelow) {
                out.add(b.substring(1, b.indexOf('"', 1)));
            }
        }
        return out;
    }
}
