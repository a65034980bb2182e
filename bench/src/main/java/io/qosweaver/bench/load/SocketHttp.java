package io.qosweaver.bench.load;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A minimal blocking HTTP/1.1 client on one keep-alive connection, used by one thread: write the
 * request, read the status, the headers and the body on the same thread, nothing handed to another.
 *
 * <p>Why not the JDK's {@code HttpClient}: its asynchronous pipeline hands every request from the
 * sending thread to an executor, its selector thread and an executor again, and each hand-off is a
 * thread wake-up. Against an idle Tika server it measured 3.6-4.8 ms p50 and 8.4-11.2 ms p99,
 * where a stand-alone client of this design, on the same server and rate, measured 2.3-2.5 and
 * 3.9-5.2 ms (2026-11-28): the client's own scheduling was a third of the light class's median and
 * half of its p99, which issue 13 says a measurement must avoid. Here a request costs its sender
 * two wake-ups: its pacing timer and the socket becoming readable.
 *
 * <p>Handles what servers answer: {@code Content-Length}, chunked bodies (trailers skipped), bodies
 * up to the connection's close, 1xx interim responses, 204 and 304 without a body, and
 * {@code Connection: close}. A connection the server closed while it was idle is reopened and the
 * request sent again once, when not a byte of its response had arrived.
 */
public final class SocketHttp implements AutoCloseable {
    private final int timeoutMs;
    /** Volatile for {@link #close} from another thread; otherwise only the owning thread touches it. */
    private volatile Socket socket;
    private OutputStream out;
    private InputStream in;
    private String hostPort;
    /** Whether the open connection has carried a request already (only then may a failure be a stale one). */
    private boolean reused;
    private volatile boolean closed;

    /** @param timeoutMs connect and read time-out; a request that exceeds it fails */
    public SocketHttp(int timeoutMs) {
        this.timeoutMs = timeoutMs;
    }

    /** Sends one request and reads its whole response; returns the status code. */
    public int exchange(URI uri, LoadSpec.Body body) throws IOException {
        byte[] request = encode(uri, body);
        String target = hostPort(uri);
        for (int attempt = 0; ; attempt++) {
            if (closed) {
                throw new IOException("closed");
            }
            if (socket == null || !target.equals(hostPort)) {
                connect(uri, target);
            }
            boolean mayBeStale = reused;
            try {
                try {
                    out.write(request);
                    out.flush();
                } catch (java.net.SocketException e) {
                    throw new StaleConnection(e); // a reset or broken pipe: nothing of the answer came
                }
                Response r = read(in);
                reused = true;
                if (r.close) {
                    disconnect();
                }
                return r.status;
            } catch (StaleConnection e) {
                disconnect();
                if (!mayBeStale || attempt > 0) {
                    throw new EOFException("the server closed the connection before answering ("
                            + e.getMessage() + ")");
                }
                // an idle connection the server had closed: once more on a new one
            } catch (IOException e) {
                disconnect();
                throw e;
            }
        }
    }

    private void connect(URI uri, String target) throws IOException {
        disconnect();
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(new InetSocketAddress(uri.getHost(), port(uri)), timeoutMs);
            s.setSoTimeout(timeoutMs);
            out = s.getOutputStream();
            in = new BufferedInputStream(s.getInputStream(), 16 * 1024);
        } catch (IOException e) {
            s.close();
            throw e;
        }
        socket = s;
        hostPort = target;
        reused = false;
        if (closed) { // close() ran while connecting
            disconnect();
            throw new IOException("closed");
        }
    }

    private void disconnect() {
        Socket s = socket;
        socket = null;
        hostPort = null;
        closeQuietly(s);
    }

    /** Closes the connection; a request blocked in it fails at once (callable from another thread). */
    @Override
    public void close() {
        closed = true;
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket s) {
        if (s != null) {
            try {
                s.close();
            } catch (IOException ignored) {
                // a connection given up on
            }
        }
    }

    static int port(URI uri) {
        if (!"http".equalsIgnoreCase(uri.getScheme())) {
            throw new IllegalArgumentException("only http:// targets, got " + uri);
        }
        return uri.getPort() > 0 ? uri.getPort() : 80;
    }

    private static String hostPort(URI uri) {
        return uri.getHost() + ":" + port(uri);
    }

    /** The request's bytes: request line, Host, the body's type and length, the body. */
    static byte[] encode(URI uri, LoadSpec.Body body) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        if (uri.getRawQuery() != null) {
            path += "?" + uri.getRawQuery();
        }
        StringBuilder h = new StringBuilder(128).append(body.method()).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: ").append(hostPort(uri)).append("\r\n")
                .append("User-Agent: qosweaver-bench\r\n");
        if (!body.method().equals("GET")) {
            h.append("Content-Type: ").append(body.contentType()).append("\r\n")
                    .append("Content-Length: ").append(body.bytes().length).append("\r\n");
        }
        byte[] head = h.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[head.length + body.bytes().length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body.bytes(), 0, all, head.length, body.bytes().length);
        return all;
    }

    record Response(int status, boolean close) {}

    /** The connection ended, or was reset, before the first byte of the answer. */
    static final class StaleConnection extends IOException {
        StaleConnection() {
            super("closed before the first byte of the answer");
        }

        StaleConnection(java.net.SocketException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Reads one final response (skipping 1xx) and its body, which is discarded. */
    static Response read(InputStream in) throws IOException {
        boolean first = true;
        while (true) {
            String statusLine = line(in, first);
            first = false;
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x status line: '" + statusLine + "'");
            }
            int status;
            try {
                status = Integer.parseInt(parts[1]);
            } catch (NumberFormatException e) {
                throw new IOException("bad status in '" + statusLine + "'");
            }
            long length = -1;
            boolean chunked = false;
            boolean close = parts[0].equals("HTTP/1.0");
            String header;
            while (!(header = line(in, false)).isEmpty()) {
                int colon = header.indexOf(':');
                if (colon <= 0) {
                    throw new IOException("bad header line '" + header + "'");
                }
                String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = header.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
                switch (name) {
                    case "content-length" -> {
                        try {
                            length = Long.parseLong(value);
                        } catch (NumberFormatException e) {
                            throw new IOException("bad Content-Length '" + value + "'");
                        }
                    }
                    case "transfer-encoding" -> chunked = value.contains("chunked");
                    case "connection" -> close = value.contains("close") || (close && !value.contains("keep-alive"));
                    default -> { }
                }
            }
            if (status >= 100 && status < 200) {
                continue; // an interim response: the final one follows
            }
            if (status == 204 || status == 304) {
                return new Response(status, close);
            }
            if (chunked) {
                skipChunks(in);
            } else if (length >= 0) {
                skip(in, length);
            } else {
                while (in.read() >= 0) {
                    // no length: the body runs to the connection's end
                }
                close = true;
            }
            return new Response(status, close);
        }
    }

    private static void skipChunks(InputStream in) throws IOException {
        while (true) {
            String size = line(in, false);
            int semi = size.indexOf(';');
            long n;
            try {
                n = Long.parseLong((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("bad chunk size '" + size + "'");
            }
            if (n == 0) {
                while (!line(in, false).isEmpty()) {
                    // trailers
                }
                return;
            }
            skip(in, n);
            if (!line(in, false).isEmpty()) {
                throw new IOException("a chunk does not end with CRLF");
            }
        }
    }

    private static void skip(InputStream in, long n) throws IOException {
        while (n > 0) {
            long k = in.skip(n);
            if (k <= 0) {
                if (in.read() < 0) {
                    throw new EOFException("the body ended " + n + " bytes early");
                }
                k = 1;
            }
            n -= k;
        }
    }

    /** One line without its CRLF; {@code statusLine}: an end before its first byte is a stale connection. */
    private static String line(InputStream in, boolean statusLine) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        int c;
        while ((c = readByte(in, statusLine && b.size() == 0)) >= 0 && c != '\n') {
            if (c != '\r') {
                b.write(c);
            }
            if (b.size() > 16 * 1024) {
                throw new IOException("a header line longer than 16 KB");
            }
        }
        if (c < 0) {
            if (statusLine && b.size() == 0) {
                throw new StaleConnection();
            }
            throw new EOFException("the response ended in a line");
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** One byte; a reset before the answer's first byte ({@code first}) is a stale connection. */
    private static int readByte(InputStream in, boolean first) throws IOException {
        try {
            return in.read();
        } catch (java.net.SocketException e) {
            if (first) {
                throw new StaleConnection(e);
            }
            throw e;
        }
    }
}
