package io.qosweaver.agent.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.platform.ControlSockets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local control socket: who may enter, the protocol, one command at a time. */
class LocalControlTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final AgentLog log = new AgentLog(new PrintStream(logged, true, StandardCharsets.UTF_8), false);

    private static String send(Path socket, String request, boolean shutOutput) throws IOException {
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.connect(UnixDomainSocketAddress.of(socket));
            ByteBuffer b = StandardCharsets.UTF_8.encode(request);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (shutOutput) {
                ch.shutdownOutput();
            }
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(4096);
            while (ch.read(buf) >= 0) {
                in.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            return in.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void aRequestIsSplitIntoWordsAndAnsweredOkOrError() throws Exception {
        Path dir = ControlSockets.directory(tmp, ControlSockets.uid());
        try (LocalControl c = LocalControl.start(dir, 42, words -> {
            if (words.contains("boom")) {
                throw new IllegalStateException("it broke");
            }
            return LocalControl.Reply.ok(String.join("|", words));
        }, log)) {
            assertThat(c.socket()).isEqualTo(dir.resolve("42.sock"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
            assertThat(send(c.socket(), "status  --json\tnow\n", false)).isEqualTo("ok\nstatus|--json|now\n");
            assertThat(send(c.socket(), "swap /a/b.yaml", true)).as("a request ended by shutting the output")
                    .isEqualTo("ok\nswap|/a/b.yaml\n");
            assertThat(send(c.socket(), "boom\n", false)).isEqualTo("error\nit broke\n");
            assertThat(send(c.socket(), "x".repeat(LocalControl.MAX_REQUEST + 10), true))
                    .startsWith("error\nrequest longer than");
        }
        assertThat(dir.resolve("42.sock")).as("closing removes the socket").doesNotExist();
    }

    @Test
    void theSocketsOfProcessesThatAreGoneAreRemoved() throws Exception {
        Path dir = ControlSockets.directory(tmp, ControlSockets.uid());
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        long dead = new ProcessBuilder("true").start().onExit().get().pid();
        Path stale = Files.createFile(dir.resolve(dead + ".sock"));
        Path live = Files.createFile(dir.resolve(ProcessHandle.current().pid() + ".sock"));
        Path other = Files.createFile(dir.resolve("notes.txt"));
        try (LocalControl c = LocalControl.start(dir, 3, w -> LocalControl.Reply.ok(""), log)) {
            assertThat(stale).doesNotExist();
            assertThat(live).exists();
            assertThat(other).exists();
        }
    }

    @Test
    void aClientThatSaysNothingIsAnsweredAfterTheTimeOutAndBlocksNobody() throws Exception {
        Path dir = ControlSockets.directory(tmp, ControlSockets.uid());
        try (LocalControl c = LocalControl.start(dir, 7, words -> LocalControl.Reply.ok("fine"), log, 300);
                SocketChannel silent = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            silent.connect(UnixDomainSocketAddress.of(c.socket()));
            assertThat(send(c.socket(), "status\n", false)).isEqualTo("ok\nfine\n");
            ByteBuffer buf = ByteBuffer.allocate(256);
            while (silent.read(buf) >= 0) {
                // until the agent answers and closes
            }
            assertThat(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8))
                    .isEqualTo("error\nno request within 300 ms\n");
        }
    }

    /** Retransformations never overlap: commands from concurrent clients run one at a time. */
    @Test
    void commandsRunOneAtATime() throws Exception {
        Path dir = ControlSockets.directory(tmp, ControlSockets.uid());
        AtomicInteger active = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        try (LocalControl c = LocalControl.start(dir, 9, words -> {
            int now = active.incrementAndGet();
            most.accumulateAndGet(now, Math::max);
            Thread.sleep(30);
            active.decrementAndGet();
            return LocalControl.Reply.ok(words.get(0));
        }, log)) {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<String>> answers = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    String w = "c" + i;
                    Callable<String> call = () -> send(c.socket(), w + "\n", false);
                    answers.add(pool.submit(call));
                }
                for (int i = 0; i < 4; i++) {
                    assertThat(answers.get(i).get()).isEqualTo("ok\nc" + i + "\n");
                }
            } finally {
                pool.shutdownNow();
            }
        }
        assertThat(most.get()).isEqualTo(1);
    }

    @Test
    void aDirectoryOthersMayEnterOrThatIsALinkIsRefused() throws Exception {
        Path open = tmp.resolve("open");
        Files.createDirectory(open, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        assertThatThrownBy(() -> LocalControl.start(open, 1, w -> LocalControl.Reply.ok(""), log))
                .isInstanceOf(IOException.class).hasMessageContaining("has permissions rwxr-xr-x; others could enter it");
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path link = Files.createSymbolicLink(tmp.resolve("link"), real);
        assertThatThrownBy(() -> LocalControl.start(link, 1, w -> LocalControl.Reply.ok(""), log))
                .isInstanceOf(IOException.class).hasMessageContaining("is not a directory (a link or a file)");
        if (ControlSockets.uid() == 0) { // root can give a directory away: someone else's is refused
            Path theirs = Files.createDirectory(tmp.resolve("theirs"),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setOwner(theirs, theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
            assertThatThrownBy(() -> LocalControl.start(theirs, 1, w -> LocalControl.Reply.ok(""), log))
                    .isInstanceOf(IOException.class).hasMessageContaining("not to this JVM's (0)");
        }
    }
}
