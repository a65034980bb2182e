package io.qosweaver.trace.os;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses one line of a tracefs instance's {@code trace_pipe} (the text format) into its fields,
 * kept in this object until the next line (one parser per reading thread). The lines:
 *
 * <pre>
 *             java-4242    [001] d..2. 11314.525313: sched_switch: prev_comm=java prev_pid=4242 prev_prio=120 prev_state=S ==&gt; next_comm=swapper/1 next_pid=0 next_prio=120
 *           &lt;idle&gt;-0       [000] dNh2. 11314.626634: sched_wakeup: comm=java pid=4242 prio=120 target_cpu=000
 *             java-4242    [000] d..2. 11314.627014: sched_wakeup_new: comm=java pid=4250 prio=120 target_cpu=001
 *             java-4242    [000] d..2. 11314.627020: sched_migrate_task: comm=java pid=4250 prio=120 orig_cpu=1 dest_cpu=0
 *             java-4242    [000] ..... 11314.627001: task_newtask: pid=4250 comm=java clone_flags=3d0f00 oom_score_adj=0
 *             java-4242    [000] ...1. 11314.626798: tracing_mark_write: some text
 * CPU:1 [LOST 311 EVENTS]
 * CPU:0 [LOST EVENTS]
 * </pre>
 *
 * A task's name ({@code comm}, at most 15 bytes) may hold spaces, brackets, dashes and even
 * {@code key=value} look-alikes: every pattern is anchored at both ends with the names bounded to
 * 16 characters, so a name is whatever makes the whole line parse (the numbers around it are not
 * names). The header's name is the task that was current (not always the one the event is about)
 * and is not used. Timestamps are the instance's clock, printed in microseconds ({@code mono}:
 * CLOCK_MONOTONIC, {@code System.nanoTime()}'s clock).
 */
public final class SchedEventParser {
    public static final int UNKNOWN = 0;
    public static final int SWITCH = 1;
    public static final int WAKEUP = 2;
    public static final int WAKEUP_NEW = 3;
    public static final int MIGRATE = 4;
    public static final int MARKER = 5;
    public static final int LOST = 6;
    public static final int NEW_TASK = 7;

    // "<comm>-<pid> [cpu] flags secs.usecs: event: payload", with an optional "(tgid)" (option record-tgid)
    // and optional flags (option irq-info off).
    private static final Pattern HEADER = Pattern.compile(
            "^\\s*.{0,16}?-(\\d+)\\s+(?:\\(\\s*[-\\d]+\\)\\s+)?\\[(\\d+)\\]\\s+(?:\\S+\\s+)?(\\d+)\\.(\\d+): (\\w+): (.*)$");
    private static final Pattern SWITCH_ARGS = Pattern.compile(
            "^prev_comm=(.{0,16}) prev_pid=(\\d+) prev_prio=(-?\\d+) prev_state=(\\S+) ==> next_comm=(.{0,16}) "
                    + "next_pid=(\\d+) next_prio=(-?\\d+)$");
    private static final Pattern WAKEUP_ARGS = Pattern.compile(
            "^comm=(.{0,16}) pid=(\\d+) prio=(-?\\d+)(?: success=\\d+)? target_cpu=(\\d+)$");
    private static final Pattern MIGRATE_ARGS = Pattern.compile(
            "^comm=(.{0,16}) pid=(\\d+) prio=(-?\\d+) orig_cpu=(\\d+) dest_cpu=(\\d+)$");
    private static final Pattern NEW_TASK_ARGS = Pattern.compile(
            "^pid=(\\d+) comm=(.{0,16}) clone_flags=([0-9a-fA-F]{1,16}) oom_score_adj=(-?\\d+)$");
    private static final Pattern LOST_LINE = Pattern.compile("^\\s*CPU:(\\d+) \\[LOST(?: (\\d+))? EVENTS\\]\\s*$");

    private final Matcher header = HEADER.matcher("");
    private final Matcher switchArgs = SWITCH_ARGS.matcher("");
    private final Matcher wakeupArgs = WAKEUP_ARGS.matcher("");
    private final Matcher migrateArgs = MIGRATE_ARGS.matcher("");
    private final Matcher newTaskArgs = NEW_TASK_ARGS.matcher("");
    private final Matcher lostLine = LOST_LINE.matcher("");

    /** What the last line was: one of the constants above. */
    public int kind;
    /** The task that was current on the CPU (the header's pid): for task_newtask, the creating one. */
    public int currentPid;
    /** task_newtask: the new task's clone flags ({@code CLONE_THREAD}, 0x10000: a thread of the creator's process). */
    public long cloneFlags;
    /** The CPU the event happened on (for {@link #LOST}: whose buffer lost them). */
    public int cpu;
    /** The event's time, in the instance clock's nanoseconds (microsecond precision). */
    public long ts;
    /** sched_switch: the task leaving the CPU; the others: the task the event is about. */
    public int pid;
    public String comm;
    /** sched_switch: the leaving task's state letter ({@code R}, {@code S}, {@code D}, ...). */
    public char prevState;
    /** sched_switch: the leaving task was preempted ({@code R+}: still runnable). */
    public boolean preempted;
    /** sched_switch: the task entering the CPU. */
    public int nextPid;
    public String nextComm;
    /** sched_wakeup(_new): the CPU whose run queue the task waits on; sched_migrate_task: the new CPU. */
    public int targetCpu;
    /** tracing_mark_write: the text. */
    public String text;
    /** {@link #LOST}: how many events the kernel dropped; -1 when it does not know ({@code [LOST EVENTS]}). */
    public long lost;

    /**
     * Parses {@code line}; never throws.
     *
     * @return {@link #kind}: {@link #UNKNOWN} for a line that is none of the above (another event,
     *     a malformed or cut line)
     */
    public int parse(String line) {
        kind = UNKNOWN;
        try {
            return parse0(line);
        } catch (RuntimeException e) { // a number too long for its type: not a line of ours
            kind = UNKNOWN;
            return kind;
        }
    }

    private int parse0(String line) {
        if (!header.reset(line).matches()) {
            if (lostLine.reset(line).matches()) {
                cpu = Integer.parseInt(lostLine.group(1));
                String n = lostLine.group(2);
                lost = n != null ? Long.parseLong(n) : -1;
                kind = LOST;
            }
            return kind;
        }
        currentPid = Integer.parseInt(header.group(1));
        cpu = Integer.parseInt(header.group(2));
        ts = timestamp(header.group(3), header.group(4));
        String event = header.group(5);
        String args = header.group(6);
        switch (event) {
            case "sched_switch":
                if (switchArgs.reset(args).matches()) {
                    comm = switchArgs.group(1);
                    pid = Integer.parseInt(switchArgs.group(2));
                    String st = switchArgs.group(4);
                    prevState = st.charAt(0);
                    preempted = st.endsWith("+");
                    nextComm = switchArgs.group(5);
                    nextPid = Integer.parseInt(switchArgs.group(6));
                    kind = SWITCH;
                }
                break;
            case "sched_wakeup":
            case "sched_wakeup_new":
                if (wakeupArgs.reset(args).matches()) {
                    comm = wakeupArgs.group(1);
                    pid = Integer.parseInt(wakeupArgs.group(2));
                    targetCpu = Integer.parseInt(wakeupArgs.group(4));
                    kind = event.length() == "sched_wakeup".length() ? WAKEUP : WAKEUP_NEW;
                }
                break;
            case "sched_migrate_task":
                if (migrateArgs.reset(args).matches()) {
                    comm = migrateArgs.group(1);
                    pid = Integer.parseInt(migrateArgs.group(2));
                    targetCpu = Integer.parseInt(migrateArgs.group(5));
                    kind = MIGRATE;
                }
                break;
            case "task_newtask":
                if (newTaskArgs.reset(args).matches()) {
                    pid = Integer.parseInt(newTaskArgs.group(1));
                    comm = newTaskArgs.group(2);
                    cloneFlags = Long.parseUnsignedLong(newTaskArgs.group(3), 16);
                    kind = NEW_TASK;
                }
                break;
            case "tracing_mark_write":
                text = args.strip();
                kind = MARKER;
                break;
            default:
                break;
        }
        return kind;
    }

    /** {@code secs.frac} to nanoseconds, whatever the fraction's digits (6 in the text format). */
    static long timestamp(String secs, String frac) {
        long ns = 0;
        int digits = Math.min(frac.length(), 9);
        for (int i = 0; i < digits; i++) {
            ns = ns * 10 + (frac.charAt(i) - '0');
        }
        for (int i = digits; i < 9; i++) {
            ns *= 10;
        }
        return Long.parseLong(secs) * 1_000_000_000L + ns;
    }
}
