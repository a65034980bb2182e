package io.qosweaver.bench.swap;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.qosweaver.bench.load.LoadDriver;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The accounting against a local server whose answers are slow, or refusals. */
class CountingLoadTest {
    private HttpServer server;
    private final AtomicLong delayMs = new AtomicLong(20);
    private final AtomicInteger status = new AtomicInteger(200);
    private final AtomicInteger served = new AtomicInteger();

    private URI start() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", ex -> {
            try {
                Thread.sleep(delayMs.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            served.incrementAndGet();
            ex.sendResponseHeaders(status.get(), -1);
            ex.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/chart");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void everyRequestSentIsCompletedAndCountedInThePhaseItEndsIn() throws Exception {
        URI uri = start();
        CountingLoad load = new CountingLoad(LoadDriver.defaultClient(), seq -> uri);
        load.clients(2);
        Thread.sleep(150);
        load.clients(4);
        load.phase(0);
        Thread.sleep(200);
        load.phase(1);
        Thread.sleep(200);
        CountingLoad.Totals t = load.stop(Duration.ofSeconds(10));
        assertThat(t.drained()).isTrue();
        assertThat(t.sent()).isPositive().isEqualTo(t.completed());
        assertThat(t.lost()).isZero();
        assertThat(t.failed()).isZero();
        assertThat(served.get()).as("the server answered what the clients counted").isEqualTo((int) t.sent());
        long inPhases = load.phaseLoad(-1).completed() + load.phaseLoad(0).completed() + load.phaseLoad(1).completed();
        assertThat(inPhases).isEqualTo(t.completed());
        CountingLoad.PhaseLoad p1 = load.phaseLoad(1);
        assertThat(p1.completed()).isPositive();
        assertThat(p1.latencyMicros().getTotalCount()).isEqualTo(p1.completed());
        assertThat(p1.latencyMicros().getMinValue()).as("latency of a 20 ms answer, us").isGreaterThanOrEqualTo(15_000);
        assertThat(load.phaseLoad(7).completed()).isZero();
    }

    @Test
    void stoppingWaitsForTheAnswersInFlight() throws Exception {
        URI uri = start();
        delayMs.set(600);
        CountingLoad load = new CountingLoad(LoadDriver.defaultClient(), seq -> uri);
        load.clients(3);
        Thread.sleep(100);
        long t0 = System.nanoTime();
        CountingLoad.Totals t = load.stop(Duration.ofSeconds(10));
        assertThat((System.nanoTime() - t0) / 1e6).as("ms waited for the slow answers").isGreaterThan(300);
        assertThat(t.drained()).isTrue();
        assertThat(t.sent()).isEqualTo(3);
        assertThat(t.completed()).isEqualTo(3);
        assertThat(t.lost()).isZero();
    }

    @Test
    void anAnswerThatDoesNotComeInTimeIsLost() throws Exception {
        URI uri = start();
        delayMs.set(3000);
        CountingLoad load = new CountingLoad(LoadDriver.defaultClient(), seq -> uri);
        load.clients(2);
        Thread.sleep(100);
        CountingLoad.Totals t = load.stop(Duration.ofMillis(100));
        assertThat(t.drained()).isFalse();
        assertThat(t.lost()).isEqualTo(2);
        assertThat(t.inFlight()).isEqualTo(2);
    }

    @Test
    void refusalsAndErrorsAreFailuresByKind() throws Exception {
        URI uri = start();
        status.set(503);
        CountingLoad load = new CountingLoad(LoadDriver.defaultClient(), seq -> uri);
        load.phase(0);
        load.clients(2);
        Thread.sleep(400);
        CountingLoad.Totals t = load.stop(Duration.ofSeconds(10));
        assertThat(t.httpErrors()).isPositive();
        assertThat(t.completed()).isZero();
        assertThat(t.failureKinds()).containsOnlyKeys("status 503");
        assertThat(t.lost()).isZero();
        assertThat(load.phaseLoad(0).failed()).isEqualTo(t.failed());

        CountingLoad refused = new CountingLoad(LoadDriver.defaultClient(), seq -> URI.create("http://127.0.0.1:1/x"));
        refused.clients(1);
        Thread.sleep(300);
        CountingLoad.Totals r = refused.stop(Duration.ofSeconds(10));
        assertThat(r.exceptions()).isPositive();
        assertThat(r.failureKinds()).containsOnlyKeys("ConnectException");
        assertThat(r.lost()).isZero();
    }
}
