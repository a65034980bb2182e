package io.qosweaver.platform;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One request to a JVM's local control socket ({@link ControlSockets}), and its answer: what
 * {@code qosweaver ctl} sends, and what an experiment that changes a running app's policy sends.
 * The protocol: one request line, the write side shut; the answer's first line is {@code ok} or
 * {@code error}, the rest is the agent's text.
 */
public final class ControlClient {
    private ControlClient() {}

    /** The agent's answer: ok or not, and its text (without the status line). */
    public record Reply(boolean ok, String text) {}

    /** Why a JVM cannot be reached; the message is the one line the user sees. */
    public static final class Unreachable extends IOException {
        private static final long serialVersionUID = 1L;

        public Unreachable(String message) {
            super(message);
        }
    }

    /** The control socket of the JVM with this pid (this user's directory). */
    public static Path socket(long pid) throws IOException {
        return ControlSockets.socketOf(ControlSockets.directory(), pid);
    }

    /** Whether a JVM with this pid answers on its control socket (whatever it answers). */
    public static boolean reachable(long pid) {
        try {
            send(pid, "help");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Sends one request line to the JVM with this pid and reads the answer.
     *
     * @throws Unreachable no such process, a process without the agent's socket, a stale socket
     * @throws IOException an answer that is not the agent's protocol
     */
    public static Reply send(long pid, String line) throws IOException {
        return send(socket(pid), pid, line);
    }

    /** As {@link #send(long, String)}, on the socket {@code socket} of process {@code pid}. */
    /**
     * {@link #send(long, String)} bounded by {@code timeout}: the plain client waits for an answer as
     * long as it takes, and a harness must not hang on a JVM that never answers. The request runs on
     * a daemon thread of its own, interrupted at the time-out (which closes its channel).
     */
    public static Reply send(long pid, String line, java.time.Duration timeout) throws IOException {
        java.util.concurrent.FutureTask<Reply> task = new java.util.concurrent.FutureTask<>(() -> send(pid, line));
        Thread t = new Thread(task, "qosweaver-control-client");
        t.setDaemon(true);
        t.start();
        try {
            return task.get(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            task.cancel(true);
            throw new IOException("no answer to '" + line + "' within " + timeout.toSeconds() + " s");
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for '" + line + "'");
        }
    }

    public static Reply send(Path socket, long pid, String line) throws IOException {
        boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        if (!alive) {
            throw new Unreachable("no process with pid " + pid);
        }
        if (!Files.exists(socket)) {
            throw new Unreachable("process " + pid + " runs no QoSWeaver agent with a control socket (" + socket
                    + " is missing): attach one with qosweaver attach " + pid + " --policy FILE, or it is another"
                    + " user's, or its agent was started with control=false");
        }
        try (SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
            } catch (IOException e) {
                throw new Unreachable("cannot connect to " + socket + " (" + e.getMessage() + "): process " + pid
                        + " is not a JVM running the agent any more, or the socket is another user's");
            }
            ByteBuffer out = StandardCharsets.UTF_8.encode(line + "\n");
            while (out.hasRemaining()) {
                ch.write(out);
            }
            ch.shutdownOutput();
            ByteArrayOutputStream in = new ByteArrayOutputStream();
            ByteBuffer buf = ByteBuffer.allocate(8192);
            while (ch.read(buf) >= 0) {
                in.write(buf.array(), 0, buf.position());
                buf.clear();
            }
            return parse(socket, in.toString(StandardCharsets.UTF_8));
        }
    }

    /** The answer's status line and text; anything else is not the agent speaking. */
    static Reply parse(Path socket, String text) throws IOException {
        int nl = text.indexOf('\n');
        String first = nl < 0 ? text : text.substring(0, nl);
        String rest = nl < 0 ? "" : text.substring(nl + 1);
        if (!first.equals("ok") && !first.equals("error")) {
            throw new IOException("unexpected answer from " + socket + ": " + text.strip());
        }
        return new Reply(first.equals("ok"), rest);
    }
}
