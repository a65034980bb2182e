package io.qosweaver.bench.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingAnalysisTest {

    private static TracingResult.Run run(int repeat, String config, double throughput) {
        return new TracingResult.Run(repeat, 0, config, 100, 0, throughput, 1000.0 / throughput, 90.0, 200.0,
                config.equals("off") ? null : 1000L, 10L, 0L, "log");
    }

    private static TracingResult assemble(double off1, double off2, double all1, double all2) {
        TracingParams p = TracingParams.quick();
        List<TracingResult.Run> runs = new ArrayList<>(List.of(run(0, "off", off1), run(1, "off", off2),
                run(0, "all", all1), run(1, "all", all2)));
        return TracingAnalysis.assemble(true, Map.of(), Map.of(), "test", p, runs, Map.of(), "now");
    }

    private static TracingResult.Goal goal(TracingResult r) {
        return r.goals().get(0);
    }

    @Test
    void aSmallLossIsTheGoalMetAndALargeOneNot() {
        assertThat(goal(assemble(10.0, 10.1, 9.9, 10.0)).met()).isTrue();
        assertThat(goal(assemble(10.0, 10.1, 9.0, 9.1)).met()).isFalse();
    }

    @Test
    void tracedRunsFasterThanTheNoiseAllowsLeaveTheGoalUnresolved() {
        TracingResult r = assemble(9.4, 9.6, 11.0, 11.2); // the quick run of 2026-11-25: -17 %, off within 2 %
        assertThat(goal(r).met()).isNull();
        assertThat(goal(r).detail()).contains("NOT RESOLVED");
        assertThat(r.summary()).noneMatch(s -> s.contains("goal met"));
        // within the untraced runs' own spread a faster traced run is noise, not a verdict's reason
        assertThat(goal(assemble(9.0, 11.0, 10.5, 10.6)).met()).isTrue();
    }
}
