package io.qosweaver.trace.os;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Lines recorded from a tracefs instance of this machine's kernel (6.18, mono clock), and hand-made hard ones. */
class SchedEventParserTest {
    private final SchedEventParser p = new SchedEventParser();

    @Test
    void aSwitchFromARecordedLine() {
        assertThat(p.parse("            bash-26543   [000] d..2. 11314.525313: sched_switch: prev_comm=bash prev_pid=26543 "
                + "prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"))
                .isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.cpu).isZero();
        assertThat(p.ts).isEqualTo(11_314_525_313_000L);
        assertThat(p.comm).isEqualTo("bash");
        assertThat(p.pid).isEqualTo(26543);
        assertThat(p.prevState).isEqualTo('S');
        assertThat(p.preempted).isFalse();
        assertThat(p.nextComm).isEqualTo("swapper/0");
        assertThat(p.nextPid).isZero();

        assertThat(p.parse("          <idle>-0       [001] d..2. 11310.764696: sched_switch: prev_comm=swapper/1 prev_pid=0 "
                + "prev_prio=120 prev_state=R ==> next_comm=bash next_pid=26461 next_prio=120"))
                .isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.cpu).isEqualTo(1);
        assertThat(p.nextPid).isEqualTo(26461);
        assertThat(p.prevState).isEqualTo('R');

        assertThat(p.parse("           sleep-26548   [000] d..2. 11314.728729: sched_switch: prev_comm=sleep prev_pid=26548 "
                + "prev_prio=120 prev_state=Z ==> next_comm=swapper/0 next_pid=0 next_prio=120")).isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.prevState).isEqualTo('Z');
    }

    @Test
    void aPreemptionAndABlockedStateWithFlags() {
        assertThat(p.parse("       C2 CompilerThre-4250  [003] d..2. 200.000001: sched_switch: prev_comm=C2 CompilerThre "
                + "prev_pid=4250 prev_prio=120 prev_state=R+ ==> next_comm=java next_pid=4242 next_prio=120"))
                .isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.comm).isEqualTo("C2 CompilerThre");
        assertThat(p.prevState).isEqualTo('R');
        assertThat(p.preempted).isTrue();
        assertThat(p.cpu).isEqualTo(3);
        assertThat(p.ts).isEqualTo(200_000_001_000L);
        assertThat(p.parse("            java-4242    [000] d..2. 1.5: sched_switch: prev_comm=java prev_pid=4242 prev_prio=120 "
                + "prev_state=D|W ==> next_comm=swapper/0 next_pid=0 next_prio=120")).isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.prevState).isEqualTo('D');
        assertThat(p.ts).isEqualTo(1_500_000_000L);
    }

    @Test
    void namesWithSpacesBracketsDashesAndLookAlikeFields() {
        // a thread may name itself anything up to 15 bytes: here "a-1 [2] x 3.4:" and "x prev_pid=9 ==>"
        assertThat(p.parse(" a-1 [2] x 3.4: -777     [001] d..2. 50.000100: sched_switch: prev_comm=a-1 [2] x 3.4: "
                + "prev_pid=777 prev_prio=120 prev_state=S ==> next_comm=q next_pid=3 ne next_pid=888 next_prio=120")).isEqualTo(SchedEventParser.SWITCH);
        assertThat(p.comm).isEqualTo("a-1 [2] x 3.4:");
        assertThat(p.pid).isEqualTo(777);
        assertThat(p.cpu).isEqualTo(1);
        assertThat(p.ts).isEqualTo(50_000_100_000L);
        assertThat(p.nextComm).isEqualTo("q next_pid=3 ne");
        assertThat(p.nextPid).isEqualTo(888);

        assertThat(p.parse("  [pool] 1-2 ]-4300    [000] d..2. 7.000007: sched_wakeup: comm=[pool] 1-2 ] pid=4300 "
                + "prio=120 target_cpu=001")).isEqualTo(SchedEventParser.WAKEUP);
        assertThat(p.comm).isEqualTo("[pool] 1-2 ]");
        assertThat(p.pid).isEqualTo(4300);
        assertThat(p.targetCpu).isEqualTo(1);
        assertThat(p.cpu).isZero();

        assertThat(p.parse("     java-4242    [000] d..2. 8.000000: sched_wakeup: comm=x pid=1 prio=1 pid=4301 prio=120 "
                + "target_cpu=000")).isEqualTo(SchedEventParser.WAKEUP);
        assertThat(p.comm).isEqualTo("x pid=1 prio=1");
        assertThat(p.pid).isEqualTo(4301);
    }

    @Test
    void wakeupsNewThreadsMigrationsAndMarkers() {
        assertThat(p.parse("          <idle>-0       [001] dNh2. 11310.765987: sched_wakeup: comm=bash pid=26458 prio=120 "
                + "target_cpu=001")).isEqualTo(SchedEventParser.WAKEUP);
        assertThat(p.pid).isEqualTo(26458);
        assertThat(p.targetCpu).isEqualTo(1);
        assertThat(p.parse("            bash-26543   [000] d..2. 11314.525220: sched_wakeup_new: comm=bash pid=26546 prio=120 "
                + "target_cpu=001")).isEqualTo(SchedEventParser.WAKEUP_NEW);
        assertThat(p.pid).isEqualTo(26546);
        assertThat(p.parse("            java-4242    [000] d..2. 9.000000: sched_migrate_task: comm=java pid=4250 prio=120 "
                + "orig_cpu=1 dest_cpu=0")).isEqualTo(SchedEventParser.MIGRATE);
        assertThat(p.pid).isEqualTo(4250);
        assertThat(p.targetCpu).isZero();
        assertThat(p.parse("            java-2627    [001] ..... 11900.000001: task_newtask: pid=2660 comm=java "
                + "clone_flags=3d0f00 oom_score_adj=0")).isEqualTo(SchedEventParser.NEW_TASK);
        assertThat(p.currentPid).isEqualTo(2627);
        assertThat(p.pid).isEqualTo(2660);
        assertThat(p.cloneFlags & 0x10000).isNotZero();
        assertThat(p.parse("            bash-26543   [000] ...1. 11314.626798: tracing_mark_write: qosweaver-stop 123"))
                .isEqualTo(SchedEventParser.MARKER);
        assertThat(p.text).isEqualTo("qosweaver-stop 123");
        assertThat(p.ts).isEqualTo(11_314_626_798_000L);
    }

    @Test
    void lostEventsAndAnythingElseNeverThrow() {
        assertThat(p.parse("CPU:1 [LOST 311 EVENTS]")).isEqualTo(SchedEventParser.LOST);
        assertThat(p.cpu).isEqualTo(1);
        assertThat(p.lost).isEqualTo(311);
        assertThat(p.parse("CPU:0 [LOST EVENTS]")).isEqualTo(SchedEventParser.LOST);
        assertThat(p.lost).isEqualTo(-1);
        assertThat(p.parse("            bash-26543   [000] ..... 11314.525211: sched_process_fork: comm=bash pid=26543 "
                + "child_comm=bash child_pid=26546")).isEqualTo(SchedEventParser.UNKNOWN);
        assertThat(p.parse("")).isEqualTo(SchedEventParser.UNKNOWN);
        assertThat(p.parse("            bash-26543   [000] d..2. 11314.5253")).isEqualTo(SchedEventParser.UNKNOWN);
        assertThat(p.parse("            java-1 [000] d..2. 1.0: sched_switch: prev_comm=j prev_pid=99999999999999999999 "
                + "prev_prio=1 prev_state=S ==> next_comm=k next_pid=2 next_prio=1")).isEqualTo(SchedEventParser.UNKNOWN);
        assertThat(p.parse("##### CPU 1 buffer started ####")).isEqualTo(SchedEventParser.UNKNOWN);
    }

    @Test
    void withoutTheIrqInfoColumnAndWithTheTgidColumn() {
        assertThat(p.parse("            java-4242    [002] 12.000003: sched_wakeup: comm=java pid=4242 prio=120 target_cpu=002"))
                .isEqualTo(SchedEventParser.WAKEUP);
        assertThat(p.cpu).isEqualTo(2);
        assertThat(p.ts).isEqualTo(12_000_003_000L);
        assertThat(p.parse("            java-4242    (   4242) [002] d..2. 12.000004: sched_wakeup: comm=java pid=4243 "
                + "prio=120 target_cpu=002")).isEqualTo(SchedEventParser.WAKEUP);
        assertThat(p.pid).isEqualTo(4243);
    }
}
