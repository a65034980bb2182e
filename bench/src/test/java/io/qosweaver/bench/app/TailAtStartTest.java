package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.load.ClassResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TailAtStartTest {
    private static final long START = 1_000_000;
    private static final double SECONDS = 60; // its start: the first 3 s

    /** A chart class of {@code requests} whose slowest requests (slowest first) started at these offsets (s). */
    private static ClassResult chart(long requests, double... startOffsetsS) {
        List<ClassResult.Slow> slow = new ArrayList<>();
        for (int i = 0; i < startOffsetsS.length; i++) {
            slow.add(new ClassResult.Slow(START + Math.round(startOffsetsS[i] * 1000), 5000.0 - i));
        }
        return new ClassResult("chart", "closed", 40, null, requests, 0, Map.of(), 10, 4000.0, 300.0, 3900.0,
                4400.0, 4900.0, 5000.0, 5000.0, 0, slow);
    }

    @Test
    void moreThanHalfOfTheSlowestOnePercentInTheFirstFivePercentIsATailAtTheStart() {
        assertThat(TailAtStart.of(chart(600, 0.2, 1.1, 2.9, 40, 1.5, 30, 50), START, SECONDS)).isTrue();
    }

    @Test
    void halfOrFewerAtTheStartIsNot() {
        assertThat(TailAtStart.of(chart(600, 0.2, 1.1, 2.9, 40, 41, 30, 1.0), START, SECONDS)).isFalse();
    }

    @Test
    void aTailLaterInTheWindowIsNot() {
        assertThat(TailAtStart.of(chart(600, 22, 22, 22, 23, 23, 23), START, SECONDS)).isFalse();
        assertThat(TailAtStart.of(chart(600, 3.0, 3.1, 3.2, 4, 5, 6), START, SECONDS))
                .as("the start ends at 5 %% of the window").isFalse();
    }

    @Test
    void onlyTheSlowestOnePercentCount() {
        // 600 requests: the 6 slowest are late in the window; slower-than-median ones after them start early
        assertThat(TailAtStart.of(chart(600, 30, 31, 32, 33, 34, 35, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8),
                START, SECONDS)).isFalse();
    }

    @Test
    void tooFewSlowRequestsRecordedSayNothing() {
        assertThat(TailAtStart.of(chart(600, 0.1, 0.2), START, SECONDS)).isFalse();
        assertThat(TailAtStart.of(null)).isFalse();
    }

    @Test
    void aSmallWindowStillLooksAtThreeRequests() {
        assertThat(TailAtStart.of(chart(50, 0.1, 0.2, 40, 41), START, SECONDS)).isTrue();
    }
}
