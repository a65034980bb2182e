package io.qosweaver.bench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyParamsTest {
    private static final String FILE = """
            # a comment naming policy: in passing
            taskClasses:
              - name: chart
                importance: low
            policy:
              name: importance
              lowLimit: 1   # the paper's
              lowCap: 1x

              # requests wait at entry
              suspendAtEntry: true
            controlPoints:
              - "call(* *.x())"
            """;

    @Test
    void aKeyPresentIsReplacedInPlaceAndTheRestOfTheFileIsKept() {
        String out = PolicyParams.apply(FILE, Map.of("lowLimit", "2"));
        assertThat(out).isEqualTo(FILE.replace("  lowLimit: 1   # the paper's", "  lowLimit: 2"));
    }

    @Test
    void anAbsentKeyIsAddedAfterTheSectionsLastKeyNotToAnotherSection() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("lowLimitAfter", "15ms");
        p.put("lowCap", "1.5x");
        String out = PolicyParams.apply(FILE, p);
        assertThat(out).isEqualTo(FILE.replace("  lowCap: 1x", "  lowCap: 1.5x")
                .replace("  suspendAtEntry: true\n", "  suspendAtEntry: true\n  lowLimitAfter: 15ms\n"));
        assertThat(out).contains("  - \"call(* *.x())\"").contains("    importance: low");
    }

    @Test
    void aKeyOfAnotherSectionOrANestedOneIsNotTakenForThePolicys() {
        String file = "policy:\n  name: importance\n  nested:\n    lowCap: 9\ntaskClasses: []\n";
        assertThat(PolicyParams.apply(file, Map.of("lowCap", "2")))
                .isEqualTo("policy:\n  name: importance\n  nested:\n    lowCap: 9\n  lowCap: 2\ntaskClasses: []\n");
        assertThat(PolicyParams.apply("taskClasses: []\npolicy:\n", Map.of("lowCap", "2")))
                .isEqualTo("taskClasses: []\npolicy:\n  lowCap: 2\n");
    }

    @Test
    void aFileWithoutABlockPolicySectionIsAnErrorSayingSo() {
        assertThatThrownBy(() -> PolicyParams.apply("policy: {name: importance}\n", Map.of("lowCap", "2")))
                .hasMessageContaining("no 'policy:' section in block style");
        assertThatThrownBy(() -> PolicyParams.apply("taskClasses: []\n", Map.of("lowCap", "2")))
                .hasMessageContaining("no 'policy:' section");
    }

    @Test
    void parsingKeepsTheOrderGiven() {
        assertThat(PolicyParams.parse("b=2:a=1")).containsExactly(Map.entry("b", "2"), Map.entry("a", "1"));
        assertThat(PolicyParams.spec(PolicyParams.parse("b=2:a=1"))).isEqualTo("b=2:a=1");
        assertThatThrownBy(() -> PolicyParams.parse("")).hasMessageContaining("not KEY=VALUE");
        assertThatThrownBy(() -> PolicyParams.parse("a=")).hasMessageContaining("not KEY=VALUE");
    }
}
