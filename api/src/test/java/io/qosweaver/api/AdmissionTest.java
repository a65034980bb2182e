package io.qosweaver.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Admission control (the paper's QThreadGroup): a group's members never ask more than the group,
 * a refusal names the numbers and changes nothing, and closing gives fractions back. The same with
 * or without the agent; here without.
 */
class AdmissionTest {

    @AfterEach
    void everythingGivenBack() {
        assertThat(Shares.admitted()).as("each test closes what it opened").isCloseTo(0, within(1e-9));
    }

    @Test
    void aGroupRefusesMembersBeyondItsFractionNamingTheNumbers() {
        try (ShareGroup web = Shares.group("web", 0.4);
                Share a = web.share("a", 0.2);
                Share b = web.share("b", 0.15)) {
            assertThat(web.admitted()).isCloseTo(0.35, within(1e-9));
            assertThatThrownBy(() -> web.share("c", 0.1))
                    .isInstanceOf(ShareRefusedException.class)
                    .hasMessage("group 'web' has 40.00 %; its members ask 35.00 % already, so share 'c' cannot have"
                            + " 10.00 % (at most 5.000 % is left); lower the request or raise the group's fraction")
                    .satisfies(e -> {
                        ShareRefusedException r = (ShareRefusedException) e;
                        assertThat(r.groupFraction()).isEqualTo(0.4);
                        assertThat(r.admitted()).isCloseTo(0.35, within(1e-9));
                        assertThat(r.asked()).isEqualTo(0.1);
                    });
            assertThat(web.admitted()).as("nothing changed").isCloseTo(0.35, within(1e-9));
            try (Share c = web.share("c", 0.05)) {
                assertThat(c.group()).isSameAs(web);
            }
            assertThat(a.group()).isSameAs(web);
        }
    }

    @Test
    void changingAFractionIsAdmittedLikeANewRequest() {
        try (ShareGroup g = Shares.group("g", 0.5); Share a = g.share("a", 0.2); Share b = g.share("b", 0.2)) {
            a.setFraction(0.3);
            assertThat(a.fraction()).isEqualTo(0.3);
            assertThatThrownBy(() -> b.setFraction(0.25)).isInstanceOf(ShareRefusedException.class)
                    .hasMessageContaining("so share 'b' cannot have 25.00 %").hasMessageContaining("its members ask 30.00 %");
            assertThat(b.fraction()).as("unchanged").isEqualTo(0.2);
            assertThat(g.admitted()).isCloseTo(0.5, within(1e-9));
        }
    }

    @Test
    void aGroupOfThreeInsideA40PercentGroupAndNestedGroupsAreBoundedEachLevel() {
        try (ShareGroup outer = Shares.group("outer", 0.4); ShareGroup inner = outer.group("inner", 0.3)) {
            Share x = inner.share("x", 0.1), y = inner.share("y", 0.1), z = inner.share("z", 0.1);
            assertThatThrownBy(() -> inner.share("w", 0.01)).isInstanceOf(ShareRefusedException.class);
            assertThatThrownBy(() -> outer.share("big", 0.2)).isInstanceOf(ShareRefusedException.class)
                    .hasMessageContaining("group 'outer' has 40.00 %");
            assertThatThrownBy(() -> inner.setFraction(0.2)).as("below what its members ask")
                    .isInstanceOf(ShareRefusedException.class).hasMessageContaining("lower its members' fractions first");
            assertThatThrownBy(() -> inner.setFraction(0.5)).as("beyond what its group has")
                    .isInstanceOf(ShareRefusedException.class).hasMessageContaining("group 'outer'");
            assertThat(inner.fraction()).isEqualTo(0.3);
            assertThat(inner.parent()).isSameAs(outer);
            assertThat(outer.parent()).isNull();
            x.close();
            y.close();
            z.close();
            assertThat(inner.admitted()).isZero();
        }
    }

    @Test
    void theTopLevelIsBoundedByWhatTheSchedulerLeaves() {
        try (Share a = Shares.share("a", 0.7)) {
            assertThatThrownBy(() -> Shares.share("b", 0.4)).isInstanceOf(ShareRefusedException.class)
                    .hasMessageContaining("the scheduler").hasMessageContaining("100.0 %");
        }
        Shares.share("b", 0.4).close(); // given back: fits now
    }
}
