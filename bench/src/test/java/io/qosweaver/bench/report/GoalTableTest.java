package io.qosweaver.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoalTableTest {
    record G(String goal, Boolean met, String detail) {}

    @Test
    void metNotMetAndUnknownVerdictsEachSayWhatTheyAre() {
        List<String[]> rows = GoalTable.of(List.of(new G("a", true, "x"), new G("b", false, "y"), new G("c", null, "z")),
                G::goal, G::met, G::detail, "not shown");
        assertThat(rows.stream().map(Arrays::asList)).containsExactly(List.of("goal", "met", "measurement"),
                List.of("a", "met", "x"), List.of("b", "NOT met", "y"), List.of("c", "not shown", "z"));
    }
}
