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

    @Test
    void twoPointcutsWovenForOneLineOfTheFileAreBothKeptAndRelabelled() {
        WeavingStats stats = new WeavingStats();
        stats.add("threadPool", "f.yaml:7", "jetty execution(...)").woven("a.A@bootstrap", 2);
        stats.add("threadPool", "f.yaml:7", "tomcat execution(...)");
        assertThat(stats.pointcuts()).extracting(WeavingStats.PointcutStats::text)
                .containsExactly("jetty execution(...)", "tomcat execution(...)");
        assertThat(stats.unmatched()).isEqualTo(1);
        stats.relabel(java.util.List.of(new WeavingStats.Label("threadPool", "g.yaml:9", "jetty execution(...)"),
                new WeavingStats.Label("threadPool", "g.yaml:9", "tomcat execution(...)")));
        assertThat(stats.pointcuts()).extracting(WeavingStats.PointcutStats::location).containsExactly("g.yaml:9", "g.yaml:9");
        assertThat(stats.pointcuts().get(0).joinPoints()).as("the count stays with its pointcut").isEqualTo(2);
        stats.add(WeavingStats.POOL_WATCH, "(jetty pools, watched)", "jetty execution(...)");
        assertThat(stats.unmatched()).as("the agent's own watch is not the file's").isEqualTo(1);
    }
}
