package io.qosweaver.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A watch's lines: values by the JDK's own toString only, the rate bound, nothing when stopped. */
class WatchProbeTest {
    @AfterEach
    void stop() {
        WatchProbe.stop();
    }

    /** An application object whose toString must never run from a watch. */
    static final class Touchy extends Number {
        @Override
        public String toString() {
            throw new AssertionError("the watch ran the application's toString");
        }

        @Override
        public int intValue() {
            return 0;
        }

        @Override
        public long longValue() {
            return 0;
        }

        @Override
        public float floatValue() {
            return 0;
        }

        @Override
        public double doubleValue() {
            return 0;
        }
    }

    enum Mode { FAST }

    @Test
    void valuesAreShownOnlyWhereNoApplicationCodeRuns() {
        assertThat(WatchProbe.value("abc")).isEqualTo("\"abc\"");
        assertThat(WatchProbe.value("x".repeat(100))).isEqualTo("\"" + "x".repeat(40) + "...\"");
        assertThat(WatchProbe.value(42L)).isEqualTo("42");
        assertThat(WatchProbe.value(new BigDecimal("1.50"))).isEqualTo("1.50");
        assertThat(WatchProbe.value(Mode.FAST)).isEqualTo("Mode.FAST");
        assertThat(WatchProbe.value(null)).isEqualTo("null");
        assertThat(WatchProbe.value(new Touchy())).startsWith(Touchy.class.getName() + "@");
        assertThat(WatchProbe.line("main", 1_500_000, "a.B.c", new Object[] {1, "s"}, 7, null, false))
                .isEqualTo("[main] 1.500 ms a.B.c(1, \"s\") = 7");
        assertThat(WatchProbe.line("main", 0, "a.B.c", new Object[0], null, new IllegalStateException("x"), false))
                .endsWith("a.B.c() threw java.lang.IllegalStateException");
        assertThat(WatchProbe.line("main", 0, "a.B.v", null, null, null, true)).endsWith("a.B.v()");
    }

    @Test
    void linesBeyondTheRateAreCountedNotFormatted() {
        assertThat(WatchProbe.enter()).as("no watch: nothing timed").isZero();
        WatchProbe.Watch w = WatchProbe.start(5);
        for (int i = 0; i < 1000; i++) {
            WatchProbe.exit(WatchProbe.enter(), "a.B.c", new Object[] {i}, null, null, true);
        }
        assertThat(w.matched()).isEqualTo(1000);
        int printed = w.drain().size();
        assertThat(printed).as("5 a second; the loop may straddle one second's turn").isBetween(5, 10);
        assertThat(w.dropped()).isEqualTo(1000 - printed);
        WatchProbe.stop();
        WatchProbe.exit(System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(1), "a.B.c", null, null, null, true);
        assertThat(w.matched()).as("a stopped watch counts nothing").isEqualTo(1000);
    }
}
