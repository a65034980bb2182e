package io.qosweaver.bench.load;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * One class of requests and how it is driven.
 *
 * <p>Closed loop ({@link #closed}): {@code clients} threads, each sends, waits for the whole
 * response, optionally thinks, and sends again, like a JMeter thread group. The offered load
 * falls when the server slows down, which is what the paper's 40 chart clients did. A response
 * with an error status (a 429 or 503 refusal) makes the client wait as its Retry-After says, or
 * 100 ms, before it asks again, as a browser user would, instead of spinning on refusals.
 *
 * <p>Open loop ({@link #open}): requests start at a constant rate whatever the server does;
 * each latency is measured from the request's <em>intended</em> start, so a stalled server or
 * a stalled driver shows up in the histogram instead of being hidden (coordinated omission).
 *
 * @param name       the class name used in results, e.g. {@code chart}
 * @param mode       closed or open loop
 * @param clients    closed loop: concurrent clients; open loop: cap on requests in flight
 * @param ratePerSecond open loop: requests started per second; unused when closed
 * @param thinkTime  closed loop: pause between a response and the next request
 * @param targets    the URI of the request with a given sequence number (per class, from 0)
 * @param timeout    per-request timeout; a timed-out request counts as an error
 * @param body       the method and body every request of the class sends; {@link Body#NONE}: a GET
 * @param transport  the HTTP client that sends them ({@link Transport})
 * @param answer     what a served answer must contain ({@link AnswerCheck}), or null: its status alone
 *                   decides (below 400: served); the JDK transport only
 */
public record LoadSpec(String name, Mode mode, int clients, double ratePerSecond,
                       Duration thinkTime, Targets targets, Duration timeout, Body body, Transport transport,
                       AnswerCheck answer) {

    /** How requests of one class are started. */
    public enum Mode { CLOSED, OPEN }

    /**
     * The HTTP client of a class. {@link #JDK}: the JDK's {@code HttpClient} (an open loop sends
     * asynchronously from one pacing thread). {@link #SOCKET}: open loop only, {@code clients}
     * threads (at most {@code ceil(rate)}), each with one keep-alive connection ({@link SocketHttp}),
     * request {@code i} sent by thread {@code i mod threads} at its intended start: no hand-off between
     * threads, so the latency is the server's and the network's, not the client's own scheduling.
     * A thread still waiting for its previous answer sends late, and the latency from the intended
     * start shows it (there is no overflow).
     */
    public enum Transport { JDK, SOCKET }

    /** The URI of request number {@code seq} of a class; called from many threads. */
    @FunctionalInterface
    public interface Targets {
        URI uri(long seq);

        static Targets fixed(URI uri) {
            return seq -> uri;
        }
    }

    /**
     * What a request carries: a GET with no body ({@link #NONE}), or a PUT or POST of the same bytes every
     * time. The bytes are sent from memory, so reading a file takes no part in the measured latency.
     *
     * @param method      {@code GET}, {@code PUT} or {@code POST}
     * @param bytes       the body; empty for a GET (not copied: the caller must not change it)
     * @param contentType the body's {@code Content-Type}, or null for a GET
     */
    public record Body(String method, byte[] bytes, String contentType) {
        public static final Body NONE = new Body("GET", new byte[0], null);

        public Body {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(bytes, "bytes");
            method = method.toUpperCase(Locale.ROOT);
            switch (method) {
                case "GET" -> {
                    if (bytes.length > 0) {
                        throw new IllegalArgumentException("a GET sends no body, got " + bytes.length + " bytes");
                    }
                }
                case "PUT", "POST" -> {
                    if (contentType == null || contentType.isBlank()) {
                        throw new IllegalArgumentException(method + " needs a content type for its body");
                    }
                }
                default -> throw new IllegalArgumentException("method: GET, PUT or POST, got '" + method + "'");
            }
        }

        /** A PUT or POST of {@code bytes} as {@code contentType}. */
        public static Body of(String method, byte[] bytes, String contentType) {
            return new Body(method, bytes, contentType);
        }

        /** The request for {@code uri} with this method and body. */
        HttpRequest.Builder apply(HttpRequest.Builder b) {
            if (method.equals("GET")) {
                return b.GET();
            }
            return b.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofByteArray(bytes));
        }

        @Override
        public String toString() {
            return method.equals("GET") ? "GET" : method + " " + bytes.length + " bytes of " + contentType;
        }
    }

    public LoadSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(targets, "targets");
        thinkTime = thinkTime == null ? Duration.ZERO : thinkTime;
        timeout = timeout == null ? Duration.ofSeconds(120) : timeout;
        body = body == null ? Body.NONE : body;
        transport = transport == null ? Transport.JDK : transport;
        if (transport == Transport.SOCKET && mode != Mode.OPEN) {
            throw new IllegalArgumentException(name + ": the socket transport drives an open loop only");
        }
        if (transport == Transport.SOCKET && answer != null) {
            throw new IllegalArgumentException(name + ": the socket transport checks no answer (" + answer.text() + ")");
        }
        if (clients < 1) {
            throw new IllegalArgumentException(name + ": clients must be >= 1, was " + clients);
        }
        if (mode == Mode.OPEN && !(ratePerSecond > 0)) {
            throw new IllegalArgumentException(name + ": open loop needs ratePerSecond > 0, was " + ratePerSecond);
        }
    }

    public static LoadSpec closed(String name, int clients, Targets targets) {
        return new LoadSpec(name, Mode.CLOSED, clients, 0, Duration.ZERO, targets, null, null, null, null);
    }

    /** Open loop at {@code ratePerSecond}, at most {@code maxInFlight} outstanding requests. */
    public static LoadSpec open(String name, double ratePerSecond, int maxInFlight, Targets targets) {
        return new LoadSpec(name, Mode.OPEN, maxInFlight, ratePerSecond, Duration.ZERO, targets, null, null, null, null);
    }

    public LoadSpec withThinkTime(Duration think) {
        return new LoadSpec(name, mode, clients, ratePerSecond, think, targets, timeout, body, transport, answer);
    }

    /** The same class with {@code n} clients (closed loop) or at most {@code n} in flight (open loop). */
    public LoadSpec withClients(int n) {
        return new LoadSpec(name, mode, n, ratePerSecond, thinkTime, targets, timeout, body, transport, answer);
    }

    public LoadSpec withTimeout(Duration t) {
        return new LoadSpec(name, mode, clients, ratePerSecond, thinkTime, targets, t, body, transport, answer);
    }

    /** The same class sending {@code b} with every request. */
    public LoadSpec withBody(Body b) {
        return new LoadSpec(name, mode, clients, ratePerSecond, thinkTime, targets, timeout, b, transport, answer);
    }

    /** The same class sent with {@code t}. */
    public LoadSpec withTransport(Transport t) {
        return new LoadSpec(name, mode, clients, ratePerSecond, thinkTime, targets, timeout, body, t, answer);
    }

    /** The same class with every served answer checked by {@code check} (null: by its status alone). */
    public LoadSpec withAnswer(AnswerCheck check) {
        return new LoadSpec(name, mode, clients, ratePerSecond, thinkTime, targets, timeout, body, transport, check);
    }

    /** The number of sending threads of a {@link Transport#SOCKET} open loop: at most one per request a second. */
    public int socketThreads() {
        return (int) Math.max(1, Math.min(clients, Math.ceil(ratePerSecond)));
    }
}
