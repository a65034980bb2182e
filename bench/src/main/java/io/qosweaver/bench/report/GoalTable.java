package io.qosweaver.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** The goals of an experiment as a report table: goal, met or not (or {@code unknown}), measurement. */
public final class GoalTable {
    private GoalTable() {}

    /**
     * @param unknown what a goal whose verdict is null says ("not measured", "not shown")
     */
    public static <G> List<String[]> of(List<G> goals, Function<G, String> goal, Function<G, Boolean> met,
            Function<G, String> detail, String unknown) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"goal", "met", "measurement"});
        for (G g : goals) {
            Boolean m = met.apply(g);
            rows.add(new String[] {goal.apply(g), m == null ? unknown : m ? "met" : "NOT met", detail.apply(g)});
        }
        return rows;
    }
}
