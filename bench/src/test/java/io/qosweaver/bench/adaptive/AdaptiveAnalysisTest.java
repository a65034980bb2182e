package io.qosweaver.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.bench.app.ScenarioResult.GaugeSample;
import io.qosweaver.bench.load.LoadResult;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The experiment's numbers from made-up series: no process, no clock. */
class AdaptiveAnalysisTest {

    private static LoadResult series(String name, double phase, long... perSecond) {
        List<LoadResult.Sample> s = new java.util.ArrayList<>();
        for (int i = 0; i < perSecond.length; i++) {
            s.add(new LoadResult.Sample(i + 1 + phase, name, perSecond[i], 0, null, null));
            s.add(new LoadResult.Sample(i + 1 + phase, "other", 999, 0, null, null));
        }
        return new LoadResult(0, perSecond.length, Map.of(), s);
    }

    @Test
    void theSampleAtOffsetKFillsTheSecondBeforeItAndOnlyTheWindowCounts() {
        long[] b = AdaptiveAnalysis.perSecond(series("levels", 0.02, 10, 20, 30, 40), "levels", 3.0);
        assertThat(b).containsExactly(10, 20, 30); // the 4th second is after a 3 s window
        // a sampler out of phase by up to half a second still lands in the nearest bucket
        assertThat(AdaptiveAnalysis.perSecond(series("levels", 0.4, 1, 2), "levels", 2.0)).containsExactly(1, 2);
        assertThat(AdaptiveAnalysis.perSecond(null, "levels", 2.0)).containsExactly(0, 0);
    }

    @Test
    void aGaugeIsAveragedInItsSecondAndHeldWhereItWasNotSampled() {
        List<GaugeSample> g = List.of(new GaugeSample(0.1, 6), new GaugeSample(0.6, 4), new GaugeSample(2.2, 2));
        assertThat(AdaptiveAnalysis.gaugePerSecond(g, 4)).containsExactly(5.0, 4.0, 2.0, 2.0);
        assertThat(AdaptiveAnalysis.gaugePerSecond(List.of(new GaugeSample(1.5, 3)), 2)).containsExactly(null, 3.0);
    }

    @Test
    void theMovingAverageIsCentredAndShorterAtTheEnds() {
        double[] ma = AdaptiveAnalysis.movingAverage(new long[] {3, 6, 9, 12}, 3);
        assertThat(ma).containsExactly(4.5, 6.0, 9.0, 10.5);
    }

    @Test
    void settlingIsWhenTheMovingAverageEntersTheBandForGood() {
        // the step: 60 % of the target, then at the target with one excursion that the average absorbs
        long[] x = {60, 70, 90, 100, 101, 99, 100, 104, 100, 99, 100, 100};
        // ma: 65, 73.3, 86.7, 97, 100, 100, 101, 101.3, 101, 99.7, 99.7, 100
        assertThat(AdaptiveAnalysis.settlingTimeS(x, 100, 0.02)).isEqualTo(4.0);
        assertThat(AdaptiveAnalysis.settlingTimeS(x, 100, 0.05)).isEqualTo(3.0);
        // never left the band: 0
        assertThat(AdaptiveAnalysis.settlingTimeS(new long[] {100, 101, 99}, 100, 0.02)).isEqualTo(0.0);
        // out of the band at the end: not settled
        assertThat(AdaptiveAnalysis.settlingTimeS(new long[] {100, 100, 100, 100, 80, 80}, 100, 0.02)).isNull();
        // a late excursion beyond what the average absorbs restarts the count
        long[] late = {100, 100, 100, 100, 100, 130, 100, 100, 100, 100};
        assertThat(AdaptiveAnalysis.settlingTimeS(late, 100, 0.02)).isEqualTo(7.0);
        // a 5 s average absorbs more
        assertThat(AdaptiveAnalysis.settlingTimeS(new long[] {100, 100, 100, 100, 100, 108, 100, 100, 100, 100},
                100, 0.02, 5)).isEqualTo(0.0);
        assertThat(AdaptiveAnalysis.settlingTimeS(new long[0], 100, 0.02)).isNull();
    }

    @Test
    void theErrorIsAgainstTheTargetOverTheSteadyPart() {
        long[] x = {10, 10, 98, 100, 102, 104};
        assertThat(AdaptiveAnalysis.mean(x, 2, x.length)).isEqualTo(101.0);
        assertThat(AdaptiveAnalysis.errorPct(101.0, 100)).isCloseTo(1.0, within(1e-9));
        assertThat(AdaptiveAnalysis.errorPct(null, 100)).isNull();
        assertThat(AdaptiveAnalysis.mean(x, 6, 6)).isNull();
        assertThat(AdaptiveAnalysis.blockMeans(new long[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 1, 5))
                .containsExactly(4.0, 9.0);
        assertThat(AdaptiveAnalysis.countWithin(List.of(100.0, 103.0, 98.5), 100, 0.02)).isEqualTo(2);
    }

    @Test
    void secondsMostlyInsideACollectionCountAsDuringIt() {
        List<AdaptiveAnalysis.Span> c = List.of(new AdaptiveAnalysis.Span(-0.5, 1.6, 2100.0),
                new AdaptiveAnalysis.Span(4.2, 5.4, 1200.0));
        boolean[] d = AdaptiveAnalysis.during(c, 7);
        assertThat(d).containsExactly(true, true, false, false, true, false, false); // 0.6 and 0.8 s in; 0.4 s not
        assertThat(AdaptiveAnalysis.during(List.of(new AdaptiveAnalysis.Span(4.2, 6.0, null)), 7))
                .containsExactly(false, false, false, false, true, true, false);
        long[] x = {50, 60, 100, 100, 100, 100, 100};
        assertThat(AdaptiveAnalysis.meanWhere(x, d, true, 0)).isEqualTo(70.0);
        assertThat(AdaptiveAnalysis.meanWhere(x, d, false, 0)).isEqualTo(100.0);
        assertThat(AdaptiveAnalysis.meanWhere(x, d, true, 5)).isNull();
        assertThat(c.get(0).startedInWindow()).isFalse();
        assertThat(c.get(1).startedInWindow()).isTrue();
    }

    @Test
    void thePapersTrackedRangeMapsOntoOurs() {
        assertThat(AdaptiveAnalysis.scaleTarget(125, 125, 200, 600, 1500)).isEqualTo(600.0);
        assertThat(AdaptiveAnalysis.scaleTarget(200, 125, 200, 600, 1500)).isEqualTo(1500.0);
        assertThat(AdaptiveAnalysis.scaleTarget(150, 125, 200, 600, 1500)).isEqualTo(900.0);
        assertThat(AdaptiveAnalysis.scaleTarget(250, 125, 200, 600, 1500)).isEqualTo(2100.0);
        assertThat(AdaptiveAnalysis.scaleTarget(25, 125, 200, 600, 1500)).as("never below 5 % of the low end")
                .isEqualTo(30.0);
    }
}
