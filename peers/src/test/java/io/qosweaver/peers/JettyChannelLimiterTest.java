package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook at Jetty 9.4-11's entry, switched off (the real servers are in {@link JettyChannelIT}). */
class JettyChannelLimiterTest {

    @Test
    void switchedOffARequestPassesWithoutTheChannelBeingRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("switch");
        PeerArgs args = PeerArgs.parse("peer=concurrency-limits,limit=fixed:1,switchFile=" + file);
        PeerSwitch s = PeerSwitch.of(args);
        JettyChannelLimiter limiter = new JettyChannelLimiter(args, s);
        Object notAChannel = new Object();
        assertThatThrownBy(() -> limiter.enter(notAChannel)).as("on: the channel is read")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not a Jetty 9.4 to 11 HttpChannel");
        Files.writeString(file, "off");
        s.poll();
        assertThat(limiter.enter(notAChannel)).as("off: no token, nothing read").isNull();
    }
}
