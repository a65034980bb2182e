package io.qosweaver.bench.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke test of {@code bench pointcuts} with the real jars at a tiny size: a real profile of one
 * small chart (JFreeChart only), two generated sets and a random one, their policies loaded by the
 * real agent, intervals measured by the real scheduler. No collection (the flash crowd runner has
 * its own smoke tests). Structure only, no time asserted; skipped, with a message, when a jar has
 * not been built.
 */
class PointcutsSmokeTest {
    @Test
    void profilesGeneratesAndMeasuresIntervals(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED PointcutsSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        // 3 h charts at the full period's 15 s step: 720 points, a profile of well under a million join points
        // short overhead warm-ups and windows (nothing asserted on what they measure, only that the light
        // warm-up comes first) and interval warm-ups; the interval windows keep 2 s: intervals must be measured
        Pointcuts.Params p = new Pointcuts.Params(3, 3, 1, List.of("org.jfree"), 4, 0.5, 1, List.of(1, 2), 0.5, 2, null,
                7, null);
        List<Pointcuts.ParamSet> sets = List.of(Pointcuts.ParamSet.parse("t10ms-m1"),
                Pointcuts.ParamSet.parse("t1ms-m300"), Pointcuts.ParamSet.random(3));
        // when the second set starts, the first one's results are already on disk
        List<String> partialAtSecondSet = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        List<String> lines = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        Progress progress = line -> {
            lines.add(line);
            if (line.startsWith("[t1ms-m300] starting") && partialAtSecondSet.isEmpty()) {
                Path partial = dir.resolve(Pointcuts.PARTIAL_RESULTS);
                try {
                    partialAtSecondSet.add(Files.isRegularFile(partial) ? Files.readString(partial) : "(none)");
                } catch (java.io.IOException e) {
                    partialAtSecondSet.add(e.toString());
                }
            }
        };
        PointcutsResult r = Pointcuts.run(layout, p, sets, List.of(), true, dir, "PointcutsSmokeTest", progress);

        assertThat(r.errors()).isEmpty();
        assertThat(r.joinPoints()).isPositive();
        assertThat(r.profile().timelines()).isEqualTo(1);
        // no slowdown is applied (the profile's time base is the application's); the same charts timed
        // without the agent measure how well that holds: the recorded timeline's span against them
        assertThat(r.profile().profileSlowdownSource()).isEqualTo("none: the profile's time base");
        assertThat(r.profile().profileSlowdown()).isEqualTo(1.0);
        assertThat(r.profile().unprofiledChartMs()).hasSize(5);
        assertThat(r.profile().profiledSpanMs()).singleElement().satisfies(span -> assertThat(span).isPositive());
        assertThat(r.profile().timeBaseStretch()).isPositive();
        assertThat(r.profile().probeCostNanos()).singleElement().satisfies(c -> assertThat(c).isPositive());
        assertThat(lines).anyMatch(l -> l.startsWith("[profile] the same charts without the profiling agent:")
                && l.contains("x slower"));
        assertThat(Files.readString(dir.resolve("app-unprofiled.log"))).as("timed without the agent")
                .contains("river-monitor listening").doesNotContain("[qosweaver]");
        assertThat(r.original().chartThroughputPerS()).hasSize(2);
        for (Pointcuts.ParamSet s : sets) {
            PointcutsResult.SetResult x = r.parameterSets().get(s.name());
            assertThat(x.pointcuts()).as(s.name()).isPositive();
            assertThat(x.selectedJoinPoints()).as(s.name()).isGreaterThanOrEqualTo(x.pointcuts());
            assertThat(dir.resolve(x.policy())).as(s.name()).isRegularFile();
            assertThat(Files.readString(dir.resolve(x.policy()))).contains("controlPoints:").contains("taskClasses:");
            assertThat(x.observed()).as(s.name()).containsOnlyKeys("1", "2");
        }
        // the generated control points are reached at run time: the agent measured intervals between them
        PointcutsResult.Observed single = r.parameterSets().get("t1ms-m300").observed().get("1");
        assertThat(single.intervals()).as("intervals measured with one client").isPositive();
        assertThat(single.meanMs()).isPositive();
        assertThat(r.parameterSets().get("t10ms-m1").generationTimeMs()).isNotNull();
        assertThat(Files.readString(dir.resolve("app-t10ms-m1-without-collection.log")))
                .contains("[qosweaver] agent started");

        // the overhead window is warmed with a light load first (a cold JIT would be measured otherwise)
        int light = -1;
        int window = -1;
        synchronized (lines) {
            for (int i = 0; i < lines.size(); i++) {
                if (light < 0 && lines.get(i).startsWith("[t10ms-m1] light warm-up")) {
                    light = i;
                }
                if (window < 0 && lines.get(i).startsWith("[t10ms-m1] overhead window")) {
                    window = i;
                }
            }
        }
        assertThat(light).as("light warm-up announced: %s", lines).isNotNegative().isLessThan(window);
        assertThat(partialAtSecondSet).hasSize(1);
        JsonNode partial = JsonWriter.MAPPER.readTree(partialAtSecondSet.get(0));
        assertThat(partial.get("parameter_sets").has("t10ms-m1")).isTrue();
        assertThat(partial.get("parameter_sets").has("t1ms-m300")).isFalse();
        assertThat(dir.resolve(Pointcuts.PARTIAL_RESULTS)).as("removed once results.json is written").doesNotExist();

        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("pointcuts");
        assertThat(j.has("generation_time_ms")).isTrue();
        assertThat(j.get("join_points").asLong()).isEqualTo(r.joinPoints());
        for (String f : List.of("pointcuts", "selected_join_points", "observed_interval_mean_ms", "overhead_pct")) {
            assertThat(j.get("parameter_sets").get("t10ms-m1").has(f)).as(f).isTrue();
        }
        for (String f : List.of("index.html", "RESULTS.md", "interval-single.png", "interval-concurrency.png")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }
}
