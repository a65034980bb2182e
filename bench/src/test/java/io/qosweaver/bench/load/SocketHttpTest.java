package io.qosweaver.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The socket client against a scripted server on a real socket: each request is answered with the next
 * scripted reply (raw bytes), after which the server may close the connection. Asserts what the server
 * received and what the client made of each framing.
 */
class SocketHttpTest {
    /** A raw reply, and whether the server closes the connection after writing it. */
    record Script(String raw, boolean closeAfter) {}

    static final String CLOSE_WITHOUT_REPLY = "";
    /** Reset the connection (RST, SO_LINGER 0) instead of answering. */
    static final String RESET_WITHOUT_REPLY = "RESET";

    private ServerSocket server;
    private final BlockingQueue<Script> script = new LinkedBlockingQueue<>();
    private final List<String> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger connections = new AtomicInteger();
    private Thread acceptor;

    @BeforeEach
    void start() throws IOException {
        server = new ServerSocket(0);
        acceptor = new Thread(this::serve, "scripted-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        acceptor.join(2000);
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                connections.incrementAndGet();
                InputStream in = new BufferedInputStream(s.getInputStream());
                OutputStream out = s.getOutputStream();
                while (true) {
                    String req = readRequest(in);
                    if (req == null) {
                        break;
                    }
                    received.add(req);
                    Script next = script.poll(5, TimeUnit.SECONDS);
                    if (next == null || next.raw().equals(CLOSE_WITHOUT_REPLY)) {
                        break;
                    }
                    if (next.raw().equals(RESET_WITHOUT_REPLY)) {
                        s.setSoLinger(true, 0);
                        break;
                    }
                    out.write(next.raw().getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    if (next.closeAfter()) {
                        break;
                    }
                }
            } catch (IOException | InterruptedException e) {
                // the test closed the server, or a connection ended
            }
        }
    }

    /** The request line, its headers and its body as text; null at the connection's end. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        int len = 0;
        String line;
        while (true) {
            StringBuilder l = new StringBuilder();
            while ((c = in.read()) >= 0 && c != '\n') {
                if (c != '\r') {
                    l.append((char) c);
                }
            }
            if (c < 0) {
                return null;
            }
            line = l.toString();
            if (line.isEmpty()) {
                break;
            }
            if (line.toLowerCase().startsWith("content-length:")) {
                len = Integer.parseInt(line.substring(15).trim());
            }
            head.append(line).append('\n');
        }
        return head + new String(in.readNBytes(len), StandardCharsets.ISO_8859_1);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
    }

    private void reply(String raw, boolean closeAfter) {
        script.add(new Script(raw, closeAfter));
    }

    @Test
    void aPutCarriesItsHostTypeLengthAndBodyAndEveryFramingIsReadOnOneConnection() throws Exception {
        reply("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", false);
        reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nX-Trailer: t\r\n\r\n", false);
        reply("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok", false);
        reply("HTTP/1.1 204 No Content\r\n\r\n", false);
        reply("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n\r\ndown", false);
        try (SocketHttp http = new SocketHttp(5000)) {
            LoadSpec.Body put = LoadSpec.Body.of("PUT", "<p>x</p>".getBytes(StandardCharsets.UTF_8), "text/html");
            assertThat(http.exchange(uri("/detect/stream?a=b%20c"), put)).isEqualTo(200);
            assertThat(http.exchange(uri("/chunked"), LoadSpec.Body.NONE)).isEqualTo(200);
            assertThat(http.exchange(uri("/continue"), LoadSpec.Body.NONE)).isEqualTo(201);
            assertThat(http.exchange(uri("/empty"), LoadSpec.Body.NONE)).isEqualTo(204);
            assertThat(http.exchange(uri("/down"), LoadSpec.Body.NONE)).isEqualTo(503);
        }
        assertThat(connections.get()).isEqualTo(1); // every framing left the connection usable
        assertThat(received.get(0)).isEqualTo("PUT /detect/stream?a=b%20c HTTP/1.1\nHost: 127.0.0.1:" + server.getLocalPort()
                + "\nUser-Agent: qosweaver-bench\nContent-Type: text/html\nContent-Length: 8\n<p>x</p>");
        assertThat(received.get(1)).startsWith("GET /chunked HTTP/1.1\n").doesNotContain("Content-Length");
        assertThat(received).hasSize(5);
    }

    @Test
    void connectionCloseAndABodyToTheEndOpenANewConnectionForTheNextRequest() throws Exception {
        reply("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\na", true);
        reply("HTTP/1.0 200 OK\r\n\r\nthe body runs to the end", true);
        reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false);
        try (SocketHttp http = new SocketHttp(5000)) {
            assertThat(http.exchange(uri("/1"), LoadSpec.Body.NONE)).isEqualTo(200);
            assertThat(http.exchange(uri("/2"), LoadSpec.Body.NONE)).isEqualTo(200);
            assertThat(http.exchange(uri("/3"), LoadSpec.Body.NONE)).isEqualTo(200);
        }
        assertThat(connections.get()).isEqualTo(3);
    }

    @Test
    void aConnectionThatEndsBeforeItsAnswerIsReopenedAndTheRequestSentAgainOnceOnly() throws Exception {
        reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true); // then closes, without saying so
        reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false);
        reply(CLOSE_WITHOUT_REPLY, false);
        reply(CLOSE_WITHOUT_REPLY, false);
        try (SocketHttp http = new SocketHttp(5000)) {
            assertThat(http.exchange(uri("/a"), LoadSpec.Body.NONE)).isEqualTo(200);
            Thread.sleep(100); // the server's close arrives
            // the idle connection is gone: /b goes out again on a new one and is answered
            assertThat(http.exchange(uri("/b"), LoadSpec.Body.NONE)).isEqualTo(200);
            // /c finds its connection closed twice: sent again once, then an error
            assertThatThrownBy(() -> http.exchange(uri("/c"), LoadSpec.Body.NONE))
                    .isInstanceOf(IOException.class);
        }
        assertThat(received.stream().map(r -> r.substring(0, r.indexOf(" HTTP/")))).containsExactly(
                "GET /a", "GET /b", "GET /c", "GET /c");
        assertThat(connections.get()).isEqualTo(3);
    }

    @Test
    void aConnectionResetBeforeItsAnswerIsTreatedAsStaleOnce() throws Exception {
        reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false);
        reply(RESET_WITHOUT_REPLY, false);
        reply("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", false);
        reply(RESET_WITHOUT_REPLY, false);
        try (SocketHttp http = new SocketHttp(5000)) {
            assertThat(http.exchange(uri("/a"), LoadSpec.Body.NONE)).isEqualTo(200);
            // reset on a reused connection before a byte of the answer: sent again on a new one
            assertThat(http.exchange(uri("/b"), LoadSpec.Body.NONE)).isEqualTo(200);
            reply(RESET_WITHOUT_REPLY, false);
            // /c: reset on the reused connection, then on the new one: an error, not a third try
            assertThatThrownBy(() -> http.exchange(uri("/c"), LoadSpec.Body.NONE))
                    .isInstanceOf(java.io.EOFException.class)
                    .hasMessageContaining("the server closed the connection before answering");
        }
        assertThat(received.stream().map(r -> r.substring(0, r.indexOf(" HTTP/")))).containsExactly(
                "GET /a", "GET /b", "GET /b", "GET /c", "GET /c");
    }

    @Test
    void aMalformedResponseIsAnErrorNamingWhatWasWrong() {
        assertThatThrownBy(() -> SocketHttp.read(stream("SSH-2.0-OpenSSH\r\n\r\n")))
                .hasMessageContaining("not an HTTP/1.x status line: 'SSH-2.0-OpenSSH'");
        assertThatThrownBy(() -> SocketHttp.read(stream("HTTP/1.1 200 OK\r\nContent-Length: lots\r\n\r\n")))
                .hasMessageContaining("bad Content-Length 'lots'");
        assertThatThrownBy(() -> SocketHttp.read(stream("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")))
                .hasMessageContaining("the body ended 5 bytes early");
        assertThatThrownBy(() -> SocketHttp.read(stream("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")))
                .hasMessageContaining("bad chunk size 'zz'");
        assertThatThrownBy(() -> SocketHttp.encode(URI.create("https://h/x"), LoadSpec.Body.NONE))
                .hasMessageContaining("only http:// targets");
    }

    @Test
    void closeFromAnotherThreadEndsABlockedRequestAtOnce() throws Exception {
        // no reply scripted: the server waits 5 s for one, the client would wait its 30 s time-out
        SocketHttp http = new SocketHttp(30_000);
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                return;
            }
            http.close();
        });
        t.start();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> http.exchange(uri("/hang"), LoadSpec.Body.NONE)).isInstanceOf(IOException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(4000);
        t.join();
    }

    private static InputStream stream(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.ISO_8859_1));
    }
}
