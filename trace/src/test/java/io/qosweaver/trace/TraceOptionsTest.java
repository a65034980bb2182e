package io.qosweaver.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.trace.timeline.Level;
import java.nio.file.Path;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class TraceOptionsTest {
    @Test
    void splitsTheTraceKeysFromTheSchedulingAgentsOwn() {
        TraceOptions.Split s = TraceOptions.split("policy=/p.yaml,trace=/tmp/r.pftrace,traceDuration=30s,metricsPort=0,"
                + "traceLevels=os+jvm,traceOsHz=250,traceMaxSize=1g");
        assertThat(s.rest()).isEqualTo("policy=/p.yaml,metricsPort=0");
        TraceOptions o = s.options();
        assertThat(o.out()).isEqualTo(Path.of("/tmp/r.pftrace"));
        assertThat(o.durationNanos()).isEqualTo(30_000_000_000L);
        assertThat(o.levels()).containsExactlyInAnyOrder(Level.OS, Level.JVM);
        assertThat(o.osHz()).isEqualTo(250);
        assertThat(o.maxBytes()).isEqualTo(1L << 30);
        assertThat(o.osSource()).isEqualTo(TraceOptions.OsSource.AUTO);
        assertThat(TraceOptions.split("trace=/r,traceOs=tracefs").options().osSource())
                .isEqualTo(TraceOptions.OsSource.TRACEFS);
        assertThat(TraceOptions.split("policy=/p.yaml").options()).isNull();
    }

    @Test
    void badValuesSayWhatIsExpected() {
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceDuration=30 seconds"))
                .hasMessageContaining("traceDuration=30 seconds is not a duration (say 30s");
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceDuration=-1s")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceLevels=os+kernel"))
                .hasMessageContaining("unknown level 'kernel'");
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceOsHz=0")).hasMessageContaining("1 to 10000");
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceMaxSize=1k")).hasMessageContaining("at least 64k");
        assertThatThrownBy(() -> TraceOptions.split("trace=a.pftrace,traceOs=ebpf"))
                .hasMessageContaining("traceOs=ebpf must be auto, tracefs or proc");
        assertThatThrownBy(() -> TraceOptions.split("traceDuration=30s")).hasMessageContaining("need trace=OUT.pftrace");
    }

    @Test
    void agentArgumentsSayTheOptionsAgain() {
        TraceOptions o = new TraceOptions(Path.of("/x/r.pftrace"), 5_000_000_000L, EnumSet.of(Level.OS, Level.APP), 50,
                1L << 20, 2048, 2_000_000, false, TraceOptions.OsSource.PROC);
        TraceOptions back = TraceOptions.split(o.toAgentArgs()).options();
        assertThat(back).isEqualTo(o);
        assertThat(TraceOptions.defaults(Path.of("/r")).toAgentArgs()).isEqualTo("trace=/r");
    }
}
