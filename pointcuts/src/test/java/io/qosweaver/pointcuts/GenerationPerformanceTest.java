package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the generator once on 1,000,000 join points and prints the time; the claim is in README.md. */
class GenerationPerformanceTest {
    @Test
    void aMillionJoinPoints() {
        Profile p = GenerationBenchmark.synthetic(1_000_000, 5_000, 42);
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 200)).generate(p);
        System.out.printf("generation from %d join points (t = 10 ms, m = 200): %.1f ms, %d pointcuts%n",
                r.joinPoints(), r.generationNanos() / 1e6, r.pointcuts().size());
        assertThat(r.joinPoints()).isEqualTo(1_000_000);
        assertThat(r.pointcuts()).isNotEmpty();
    }
}
