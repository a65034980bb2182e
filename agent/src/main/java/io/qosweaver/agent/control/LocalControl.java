package io.qosweaver.agent.control;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.platform.ControlSockets;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The agent's local control ({@code qosweaver ctl PID ...}): a Unix-domain socket, never a network
 * address. Who may use it is decided twice: the socket lives in a directory that only the JVM's
 * user can enter ({@link ControlSockets}: {@code /tmp/qosweaver-UID}, mode 700, refused if it is anyone else's or others
 * may enter it), and every connection's peer user, from the kernel ({@code SO_PEERCRED}), must be
 * the JVM's own.
 *
 * <p>Protocol: the client writes one line of words (at most {@link #MAX_REQUEST} bytes) and shuts
 * its output; the agent answers {@code ok} or {@code error} on the first line, then text, and
 * closes. Commands run one at a time on one thread ({@code qosweaver-ctl-commands}), so that
 * retransformations never overlap; a connection's request is read on its own short-lived thread,
 * with a time-out, so that a client that connects and says nothing blocks nobody.
 */
public final class LocalControl implements AutoCloseable {
    /** A request's longest line. */
    public static final int MAX_REQUEST = 64 * 1024;
    static final long READ_TIMEOUT_MS = 5_000;
    static final long COMMAND_TIMEOUT_S = 300;
    private static final int MAX_CONNECTIONS = 4;
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    /** What a command answered. */
    public record Reply(boolean ok, String text) {
        public static Reply ok(String text) {
            return new Reply(true, text);
        }

        public static Reply error(String text) {
            return new Reply(false, text);
        }
    }

    /** Runs one request (its words, split at blanks); called on the commands thread only. */
    @FunctionalInterface
    public interface Handler {
        Reply handle(List<String> words) throws Exception;
    }

    private final Path socket;
    private final long readTimeoutMs;
    private final ServerSocketChannel server;
    private final Handler handler;
    private final AgentLog log;
    private final String owner;
    private final ExecutorService commands = Executors.newSingleThreadExecutor(r -> daemon(r, "qosweaver-ctl-commands"));
    private final Semaphore connections = new Semaphore(MAX_CONNECTIONS);
    private final Thread acceptor;
    private volatile boolean closed;

    private LocalControl(Path socket, ServerSocketChannel server, Handler handler, AgentLog log, String owner,
            long readTimeoutMs) {
        this.socket = socket;
        this.readTimeoutMs = readTimeoutMs;
        this.server = server;
        this.handler = handler;
        this.log = log;
        this.owner = owner;
        this.acceptor = daemon(this::accept, "qosweaver-ctl");
    }

    /**
     * Opens this JVM's socket in {@code dir} (created mode 700 if missing) and starts serving.
     *
     * @throws IOException naming what is wrong: a directory that is not ours or that others may
     *     enter, a socket that cannot be bound
     */
    public static LocalControl start(Path dir, long pid, Handler handler, AgentLog log) throws IOException {
        return start(dir, pid, handler, log, READ_TIMEOUT_MS);
    }

    static LocalControl start(Path dir, long pid, Handler handler, AgentLog log, long readTimeoutMs) throws IOException {
        String owner = ownOnlyDirectory(dir);
        removeStale(dir);
        Path socket = ControlSockets.socketOf(dir, pid);
        Files.deleteIfExists(socket); // a previous JVM's with the same pid: it is gone, or we would not have it
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        try {
            server.bind(UnixDomainSocketAddress.of(socket));
            Files.setPosixFilePermissions(socket, PosixFilePermissions.fromString("rw-------"));
        } catch (IOException | RuntimeException e) {
            server.close();
            throw new IOException("cannot open the control socket " + socket + ": " + e.getMessage(), e);
        }
        LocalControl c = new LocalControl(socket, server, handler, log, owner, readTimeoutMs);
        c.acceptor.start();
        return c;
    }

    /**
     * Creates {@code dir} mode 700, or checks that the one there is a real directory (not a link),
     * owned by this process's user and closed to everyone else. Returns the owner's name.
     */
    static String ownOnlyDirectory(Path dir) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another JVM of ours made it first: checked below like any other
            }
            Files.setPosixFilePermissions(dir, OWNER_ONLY); // the umask may have taken bits away, never added
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a directory (a link or a file): remove it, the agent makes its own");
        }
        int dirUid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        int me = ControlSockets.uid();
        if (dirUid != me) {
            throw new IOException(dir + " belongs to user id " + dirUid + ", not to this JVM's (" + me + "):"
                    + " someone else made it; remove it");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!EnumSet.copyOf(perms).equals(EnumSet.copyOf(OWNER_ONLY))) {
            throw new IOException(dir + " has permissions " + PosixFilePermissions.toString(perms) + "; others could"
                    + " enter it: chmod 700 it or remove it");
        }
        return Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
    }

    /** Sockets of JVMs that are gone without closing theirs (killed): {@code PID.sock} of no live process. */
    static void removeStale(Path dir) {
        try (var files = Files.list(dir)) {
            files.forEach(f -> {
                String name = f.getFileName().toString();
                if (name.matches("[0-9]{1,18}\\.sock")) {
                    long pid = Long.parseLong(name.substring(0, name.length() - ".sock".length()));
                    if (ProcessHandle.of(pid).isEmpty()) {
                        try {
                            Files.deleteIfExists(f);
                        } catch (IOException e) {
                            // another JVM of ours cleaned it first
                        }
                    }
                }
            });
        } catch (IOException e) {
            // cleaning is a courtesy; the socket is opened anyway
        }
    }

    public Path socket() {
        return socket;
    }

    private void accept() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closed) {
                    log.warn("control socket " + socket + ": " + e + "; no longer accepting");
                }
                return;
            }
            if (!connections.tryAcquire()) {
                answer(ch, Reply.error("busy: " + MAX_CONNECTIONS + " requests in progress; try again"));
                continue;
            }
            daemon(() -> {
                try {
                    serve(ch);
                } finally {
                    connections.release();
                }
            }, "qosweaver-ctl-request").start();
        }
    }

    private void serve(SocketChannel ch) {
        String peer;
        try {
            UnixDomainPrincipal p = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            peer = p.user().getName();
        } catch (IOException | RuntimeException e) {
            answer(ch, Reply.error("cannot tell who is connecting (" + e + "); refused"));
            return;
        }
        if (!peer.equals(owner)) {
            log.warn("control socket: refused a connection from user " + peer + " (only " + owner + " may control)");
            answer(ch, Reply.error("refused: only user " + owner + " may control this JVM"));
            return;
        }
        String line;
        try {
            line = readRequest(ch, readTimeoutMs);
        } catch (IOException e) {
            answer(ch, Reply.error(e.getMessage()));
            return;
        }
        List<String> words = words(line);
        Future<Reply> f = commands.submit(() -> handler.handle(words));
        Reply reply;
        try {
            reply = f.get(COMMAND_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            reply = Reply.error(c.getMessage() != null ? c.getMessage() : c.toString());
        } catch (TimeoutException e) {
            reply = Reply.error("the command did not finish within " + COMMAND_TIMEOUT_S + " s; it goes on in the JVM");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reply = Reply.error("interrupted");
        }
        answer(ch, reply);
    }

    /** One line, ended by a newline or by the client shutting its output, within the read time-out. */
    static String readRequest(SocketChannel ch, long timeoutMs) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(MAX_REQUEST + 1);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        ch.configureBlocking(false);
        boolean tooLong = false;
        try (Selector selector = Selector.open()) {
            ch.register(selector, SelectionKey.OP_READ);
            while (true) {
                int n = ch.read(buf);
                int len = buf.position();
                for (int i = 0; i < len && !tooLong; i++) {
                    if (buf.get(i) == '\n') {
                        return new String(buf.array(), 0, i, StandardCharsets.UTF_8);
                    }
                }
                if (n < 0) {
                    if (tooLong) {
                        throw new IOException("request longer than " + MAX_REQUEST + " bytes");
                    }
                    return new String(buf.array(), 0, len, StandardCharsets.UTF_8);
                }
                if (len > MAX_REQUEST) {
                    // read the rest to its end before answering: closing on unread bytes resets the
                    // connection, and the client would see that instead of the reason
                    tooLong = true;
                    buf.clear();
                }
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    throw new IOException(tooLong ? "request longer than " + MAX_REQUEST + " bytes"
                            : "no request within " + timeoutMs + " ms");
                }
                selector.select(left);
                selector.selectedKeys().clear();
            }
        } finally {
            ch.configureBlocking(true); // the selector is closed: the channel is deregistered
        }
    }

    static List<String> words(String line) {
        List<String> out = new ArrayList<>();
        for (String w : line.strip().split("\\s+")) {
            if (!w.isEmpty()) {
                out.add(w);
            }
        }
        return out;
    }

    private static void answer(SocketChannel ch, Reply r) {
        try (ch) {
            String text = r.text() == null ? "" : r.text();
            ByteBuffer b = StandardCharsets.UTF_8.encode((r.ok() ? "ok" : "error") + "\n" + text
                    + (text.isEmpty() || text.endsWith("\n") ? "" : "\n"));
            while (b.hasRemaining()) {
                ch.write(b);
            }
        } catch (IOException e) {
            // the client went away: nothing to tell it
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        commands.shutdown();
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // a stale socket is replaced by the next JVM with this pid
        }
    }
}
