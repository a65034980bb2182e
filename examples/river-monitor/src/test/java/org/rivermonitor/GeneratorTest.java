package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.rivermonitor.generator.GeneratorServer;
import org.rivermonitor.generator.SensorModel;

class GeneratorTest {

    private static final long HOUR = 3_600_000L;
    private static final long T0 = Instant.parse("2025-06-01T00:00:00Z").toEpochMilli();

    @Test
    void seriesIsDeterministicBoundedAndVaries() {
        for (int river = 1; river <= 20; river++) {
            SensorModel a = SensorModel.forRiver(42, river);
            SensorModel b = SensorModel.forRiver(42, river);
            double min = Double.MAX_VALUE;
            double max = -Double.MAX_VALUE;
            for (long t = T0; t < T0 + 7 * 24 * HOUR; t += 60_000) {
                double v = a.levelAt(t);
                assertThat(v).isEqualTo(b.levelAt(t)).isBetween(0.0, SensorModel.MAX_LEVEL_M);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            // A week of a river moves by at least a few centimetres (noise, tide, rain).
            assertThat(max - min).as("river %d range", river).isGreaterThan(0.05);
        }
        // Different seeds give different rivers.
        assertThat(SensorModel.forRiver(42, 1).levelAt(T0)).isNotEqualTo(SensorModel.forRiver(42, 2).levelAt(T0));
        assertThat(SensorModel.forRiver(42, 1).levelAt(T0)).isNotEqualTo(SensorModel.forRiver(43, 1).levelAt(T0));
    }

    @Test
    void seriesIsContinuousLikeARealGauge() {
        SensorModel m = SensorModel.forRiver(42, 5);
        double prev = m.levelAt(T0);
        for (long t = T0 + 15_000; t < T0 + 48 * HOUR; t += 15_000) {
            double v = m.levelAt(t);
            // No jumps of more than 20 cm in 15 s.
            assertThat(Math.abs(v - prev)).isLessThan(0.2);
            prev = v;
        }
    }

    @Test
    void someRiversFlood() {
        // Over a month, rain waves lift at least some of 20 rivers a metre above their normal level.
        int flooded = 0;
        for (int river = 1; river <= 20; river++) {
            SensorModel m = SensorModel.forRiver(42, river);
            double max = 0;
            for (long t = T0; t < T0 + 30 * 24 * HOUR; t += 600_000) {
                max = Math.max(max, m.levelAt(t));
            }
            if (max > m.normalLevelM() + 1.0) {
                flooded++;
            }
        }
        assertThat(flooded).isGreaterThan(2);
    }

    @Test
    void endpointServesTheModelsReading() throws Exception {
        Clock clock = Clock.fixed(Instant.ofEpochMilli(T0 + 1234), ZoneOffset.UTC);
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 5, clock).start()) {
            assertThat(g.port()).isPositive();
            Http.Response r = Http.get(g.url() + "/sensors/3/level");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentType()).startsWith("application/json");
            JsonNode json = new ObjectMapper().readTree(r.body());
            assertThat(json.get("river").asInt()).isEqualTo(3);
            assertThat(json.get("ts").asLong()).isEqualTo(T0 + 1234);
            assertThat(json.get("level_m").asDouble()).isEqualTo(SensorModel.forRiver(42, 3).levelAt(T0 + 1234));

            assertThat(Http.get(g.url() + "/sensors/0/level").status()).isEqualTo(404);
            assertThat(Http.get(g.url() + "/sensors/6/level").status()).isEqualTo(404);
            assertThat(Http.get(g.url() + "/sensors/abc/level").status()).isEqualTo(404);
            assertThat(Http.get(g.url() + "/sensors/1").status()).isEqualTo(404);
        }
    }

    @Test
    void liveReadingsChangeOverTime() throws Exception {
        long[] now = {T0};
        Clock clock = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return Instant.ofEpochMilli(now[0]);
            }
        };
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 2, clock).start()) {
            ObjectMapper json = new ObjectMapper();
            double first = json.readTree(Http.get(g.url() + "/sensors/1/level").body()).get("level_m").asDouble();
            now[0] += 3 * HOUR;
            double later = json.readTree(Http.get(g.url() + "/sensors/1/level").body()).get("level_m").asDouble();
            assertThat(later).isNotEqualTo(first);
        }
    }
}
