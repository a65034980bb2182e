package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file that turns a peer off and on at run time, read once per poll. */
class PeerSwitchTest {

    @TempDir
    Path dir;

    private PeerSwitch switchAt(Path file) {
        return PeerSwitch.of(PeerArgs.parse("peer=jetty-qos,switchFile=" + file));
    }

    @Test
    void withoutAFileThePeerIsAlwaysOn() {
        assertThat(PeerSwitch.of(PeerArgs.parse("peer=jetty-qos"))).isSameAs(PeerSwitch.ALWAYS_ON);
        assertThat(PeerSwitch.ALWAYS_ON.watch().on()).isTrue();
    }

    @Test
    void theFileTurnsItOffAndOnAndTheStateFileSaysWhatIsInForce() throws Exception {
        Path file = dir.resolve("switch");
        PeerSwitch s = switchAt(file);
        s.poll();
        assertThat(s.on()).as("no file yet: on").isTrue();
        assertThat(s.stateFile()).as("nothing applied, nothing acknowledged").doesNotExist();

        Files.writeString(file, "off\n");
        s.poll();
        assertThat(s.on()).isFalse();
        assertThat(Files.readString(s.stateFile()).strip()).isEqualTo("off");

        Files.writeString(file, " on ");
        s.poll();
        assertThat(s.on()).isTrue();
        assertThat(Files.readString(s.stateFile()).strip()).isEqualTo("on");
    }

    @Test
    void aWordOtherThanOnOrOffChangesNothingAndIsNamedOnce() throws Exception {
        Path file = dir.resolve("switch");
        PeerSwitch s = switchAt(file);
        Files.writeString(file, "off");
        s.poll();
        PrintStream err = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setErr(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            Files.writeString(file, "disable");
            s.poll();
            s.poll();
        } finally {
            System.setErr(err);
        }
        assertThat(s.on()).isFalse();
        assertThat(Files.readString(s.stateFile()).strip()).isEqualTo("off");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("qosweaver-peers: error: switch: " + file
                + " says 'disable'; expected on or off: jetty-qos stays off" + System.lineSeparator());
    }

    @Test
    void theWatchingThreadAppliesAChangeWithinAFewPolls() throws Exception {
        Path file = dir.resolve("switch");
        PeerSwitch s = switchAt(file).watch();
        Files.writeString(file, "off");
        await().atMost(5, TimeUnit.SECONDS).until(() -> !s.on() && Files.exists(s.stateFile()));
        assertThat(Files.readString(s.stateFile()).strip()).isEqualTo("off");
    }
}
