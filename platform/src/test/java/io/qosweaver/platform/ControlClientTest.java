package io.qosweaver.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's side of the control protocol, against a one-shot server on a socket of the test's own. */
class ControlClientTest {
    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void sendsTheLineAndSplitsTheStatusFromTheText(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("s.sock");
        CompletableFuture<String> received = serveOnce(socket, "ok\nswapped in 12 ms\n");
        ControlClient.Reply r = ControlClient.send(socket, SELF, "swap /a/b.yaml");
        assertThat(received.get()).isEqualTo("swap /a/b.yaml\n");
        assertThat(r.ok()).isTrue();
        assertThat(r.text()).isEqualTo("swapped in 12 ms\n");
    }

    @Test
    void anErrorAnswerIsAReplyNotAnException(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("s.sock");
        serveOnce(socket, "error\nno policy is in force");
        ControlClient.Reply r = ControlClient.send(socket, SELF, "set policy.lowLimit=2");
        assertThat(r.ok()).isFalse();
        assertThat(r.text()).isEqualTo("no policy is in force");
    }

    @Test
    void anAnswerOutsideTheProtocolIsRefused(@TempDir Path dir) throws Exception {
        Path socket = dir.resolve("s.sock");
        serveOnce(socket, "HTTP/1.1 400 Bad Request\n");
        assertThatThrownBy(() -> ControlClient.send(socket, SELF, "status"))
                .hasMessageContaining("unexpected answer").hasMessageContaining("HTTP/1.1 400");
    }

    @Test
    void aMissingSocketOrADeadPidIsUnreachable(@TempDir Path dir) {
        assertThatThrownBy(() -> ControlClient.send(dir.resolve("none.sock"), SELF, "status"))
                .isInstanceOf(ControlClient.Unreachable.class).hasMessageContaining("is missing");
        assertThatThrownBy(() -> ControlClient.send(dir.resolve("none.sock"), Long.MAX_VALUE, "status"))
                .isInstanceOf(ControlClient.Unreachable.class).hasMessageContaining("no process with pid");
    }

    /** Accepts one connection, reads the request to its end, answers, closes. */
    private static CompletableFuture<String> serveOnce(Path socket, String answer) throws Exception {
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        return CompletableFuture.supplyAsync(() -> {
            try (server; SocketChannel ch = server.accept()) {
                ByteArrayOutputStream in = new ByteArrayOutputStream();
                ByteBuffer buf = ByteBuffer.allocate(1024);
                while (ch.read(buf) >= 0) {
                    in.write(buf.array(), 0, buf.position());
                    buf.clear();
                }
                ch.write(StandardCharsets.UTF_8.encode(answer));
                return in.toString(StandardCharsets.UTF_8);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
