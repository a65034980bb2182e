package io.qosweaver.bench.load;

import java.net.URI;
import java.time.Duration;
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
 */
public record LoadSpec(String name, Mode mode, int clients, double ratePerSecond,
                       Duration thinkTime, Targets targets, Duration timeout) {

    /** How requests of one class are started. */
    public enum Mode { CLOSED, OPEN }

    /** The URI of request number {@code seq} of a class; called from many threads. */
    @FunctionalInterface
    public interface Targets {
        URI uri(long seq);

        static Targets fixed(URI uri) {
            return seq -> uri;
        }
    }

    public LoadSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(targets, "targets");
        thinkTime = thinkTime == null ? Duration.ZERO : thinkTime;
        timeout = timeout == null ? Duration.ofSeconds(120) : timeout;
        if (clients < 1) {
            throw new IllegalArgumentException(name + ": clients must be >= 1, was " + clients);
        }
        if (mode == Mode.OPEN && !(ratePerSecond > 0)) {
            throw new IllegalArgumentException(name + ": open loop needs ratePerSecond > 0, was " + ratePerSecond);
        }
    }

    public static LoadSpec closed(String name, int clients, Targets targets) {
        return new LoadSpec(name, Mode.CLOSED, clients, 0, Duration.ZERO, targets, null);
    }

    /** Open loop at {@code ratePerSecond}, at most {@code maxInFlight} outstanding requests. */
    public static LoadSpec open(String name, double ratePerSecond, int maxInFlight, Targets targets) {
        return new LoadSpec(name, Mode.OPEN, maxInFlight, ratePerSecond, Duration.ZERO, targets, null);
    }

    public LoadSpec withThinkTime(Duration think) {
        return new LoadSpec(name, mode, clients, ratePerSecond, think, targets, timeout);
    }

    /** The same class with {@code n} clients (closed loop) or at most {@code n} in flight (open loop). */
    public LoadSpec withClients(int n) {
        return new LoadSpec(name, mode, n, ratePerSecond, thinkTime, targets, timeout);
    }

    public LoadSpec withTimeout(Duration t) {
        return new LoadSpec(name, mode, clients, ratePerSecond, thinkTime, targets, t);
    }
}
