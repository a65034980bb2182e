package io.qosweaver.agent.weaving;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Counted per class: a class woven again (a watch, a swap retransforms it) is not counted twice. */
class WeavingStatsTest {
    @Test
    void aClassWovenAgainReplacesItsCount() {
        WeavingStats stats = new WeavingStats();
        WeavingStats.PointcutStats p = stats.add("controlPoint", "f.yaml:3", "call(...)");
        String a = WeavingStats.classKey("a.A", null);
        String b = WeavingStats.classKey("a.B", getClass().getClassLoader());
        p.woven(a, 2);
        p.woven(b, 1);
        p.woven(a, 2); // retransformed
        assertThat(p.joinPoints()).isEqualTo(3);
        p.woven(b, 0); // woven again without the site
        assertThat(p.joinPoints()).isEqualTo(2);
        assertThat(stats.unmatched()).isZero();
        stats.transformed(a, true);
        stats.transformed(a, true);
        stats.transformed(b, false);
        assertThat(stats.classesWoven()).isEqualTo(2);
        assertThat(stats.retransformed()).isEqualTo(1);
        assertThat(WeavingStats.classKey("a.A", new ClassLoader() { })).isNotEqualTo(a);
    }
}
