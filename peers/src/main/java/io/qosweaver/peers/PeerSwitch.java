package io.qosweaver.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Turns an installed peer off (every request goes straight to the application, as if the peer were not
 * there) and on again while the server runs, so that a measurement can pair the peer with the unscheduled
 * application inside one process ({@code bench mixed --paired}): two processes of the same jar differ by
 * up to 40 % in CPU per request here, more than the goals' margins.
 *
 * <p>Driven by a file ({@code switchFile=PATH}): {@code off} or {@code on}; a missing file leaves the peer on.
 * A daemon thread reads it every {@link #POLL_MS} ms and, after each change it applied, writes the state in
 * force to {@code PATH.state}, which is what the harness waits for. A request admitted while the peer was on
 * is released by it as usual after a change; one that bypassed it is never counted by it.
 */
public final class PeerSwitch {
    static final long POLL_MS = 50;
    /** The switch of a peer started without {@code switchFile}: always on, nothing watched. */
    static final PeerSwitch ALWAYS_ON = new PeerSwitch(null, "");

    private final Path file;
    private final String peer;
    private volatile boolean on = true;
    private String lastBad;

    private PeerSwitch(Path file, String peer) {
        this.file = file;
        this.peer = peer;
    }

    /** The switch for these arguments: {@link #ALWAYS_ON} without {@code switchFile}, else a watched file. */
    static PeerSwitch of(PeerArgs args) {
        return args.switchFile() == null ? ALWAYS_ON : new PeerSwitch(args.switchFile(), args.peer());
    }

    /** Whether the peer acts on requests now: one volatile read, on every request. */
    public boolean on() {
        return on;
    }

    /** Starts the daemon thread that reads the file; nothing for {@link #ALWAYS_ON}. Returns this. */
    PeerSwitch watch() {
        if (file == null) {
            return this;
        }
        Thread t = new Thread(() -> {
            while (true) {
                poll();
                try {
                    Thread.sleep(POLL_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "qosweaver-peers-switch");
        t.setDaemon(true);
        t.start();
        return this;
    }

    /** Reads the file once and applies it; what the watching thread does every {@link #POLL_MS} ms. */
    synchronized void poll() {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            return;
        } catch (IOException e) {
            bad("cannot read " + file + ": " + e.getMessage());
            return;
        }
        boolean want;
        if (text.equals("on")) {
            want = true;
        } else if (text.equals("off")) {
            want = false;
        } else {
            bad(file + " says '" + abbreviate(text) + "'; expected on or off: " + peer + " stays "
                    + (on ? "on" : "off"));
            return;
        }
        lastBad = null;
        if (want != on || !Files.exists(stateFile())) {
            on = want;
            System.err.println(PeersAgent.PREFIX + peer + (want ? " on" : " off: requests bypass it"));
            writeState(want ? "on" : "off");
        }
    }

    /** Where the state in force is written after each change: {@code PATH.state}. */
    Path stateFile() {
        return file.resolveSibling(file.getFileName() + ".state");
    }

    private void writeState(String state) {
        Path target = stateFile();
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, state + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            bad("cannot write " + target + ": " + e.getMessage());
        }
    }

    /** One line per distinct problem, not one every poll. */
    private void bad(String message) {
        if (!message.equals(lastBad)) {
            lastBad = message;
            System.err.println(PeersAgent.PREFIX + "error: switch: " + message);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }
}
