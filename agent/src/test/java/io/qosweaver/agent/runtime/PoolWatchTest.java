package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.bootstrap.ServerPools;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.scheduler.Scheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The pool watch in process, with the real weaving and a real Jetty 12 whose pool has 16 threads:
 * requests of a class capped at one, waiting at entry, hold the server's threads, and the watch
 * says so when they hold half of them, once, naming the pool and a size; with room given by the
 * {@code threadPools} section it says nothing; an idle server's pool of the same size in the same
 * process is never named.
 */
class PoolWatchTest {
    private static final String POLICY = """
            taskClasses:
              - name: slow
                request: {path: /slow}
                importance: low
            policy:
              name: importance
              lowCap: 1
              suspendAtEntry: true
            """;
    private static final int POOL = 16;
    private static final int REQUESTS = 9; // one runs, eight wait at entry: 2 x 8 >= 16
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void requestsWaitingAtEntryThatHoldHalfThePoolAreReportedOnceWithTheRoomToGive() throws Exception {
        List<String> said = run(POLICY);
        assertThat(said).hasSize(2);
        assertThat(said.get(0)).startsWith("8 requests waited at entry at once")
                .contains("the jetty pool org.eclipse.jetty.util.thread.QueuedThreadPool@")
                .contains("has at most 16 threads").contains("threadPools: [{server: jetty, max: 24}]");
        assertThat(said.get(1)).as("a second look at the same pool and size says nothing").isEmpty();
    }

    @Test
    void aPoolWithRoomForTheWaitingRequestsIsNotReported() throws Exception {
        List<String> said = run(POLICY + """
                aspects:
                  threadPools:
                    - server: jetty
                      max: 40
                """);
        assertThat(said).containsExactly("", "");
    }

    /** The two looks' lines ("" for none) while {@link #REQUESTS} requests are in the server. */
    private static List<String> run(String policyText) throws Exception {
        Instrumentation inst = ByteBuddyAgent.install();
        AgentLog log = new AgentLog(new PrintStream(new ByteArrayOutputStream()), false);
        CountDownLatch release = new CountDownLatch(1);
        Server server = new Server(new QueuedThreadPool(POOL, 4, 60_000));
        // A second server of the same process, idle, with a pool small enough for the peak to "fill":
        // the waiting requests are not its threads, so it must never be named.
        Server idle = new Server(new QueuedThreadPool(POOL, 4, 60_000));
        ServerConnector ic = new ServerConnector(idle, 1, 1);
        ic.setHost("127.0.0.1");
        ic.setPort(0);
        idle.addConnector(ic);
        ServerConnector c = new ServerConnector(server, 1, 1);
        c.setHost("127.0.0.1");
        c.setPort(0);
        server.addConnector(c);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                release.await(30, TimeUnit.SECONDS); // blocks its thread, as a heavy request's work does
                response.write(true, java.nio.ByteBuffer.wrap("done".getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        Weaving weaving = null;
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            PolicyFile policy = PolicyFile.parse("watch.yaml", policyText);
            Scheduler.install(SchedulerGateway.configOf(policy));
            weaving = PolicyWeaving.install(inst, policy, log);
            server.start(); // after the weaving: the pool is seen as it starts
            idle.start();
            int port = c.getLocalPort();
            PoolWatch watch = new PoolWatch(log);
            assertThat(watch.check()).as("nothing waited yet").isEmpty(); // and the peak starts at 0
            for (int i = 0; i < REQUESTS; i++) {
                answers.add(HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/slow"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (Scheduler.current().stats().waitQueueSize() < REQUESTS - 1 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(Scheduler.current().stats().waitQueueSize()).as("waiting at entry").isEqualTo(REQUESTS - 1);
            assertThat(ServerPools.sizes()).anySatisfy(s -> assertThat(s.server()).isEqualTo("jetty"));
            // this server's pool only: pools of other tests in this JVM may not be collected yet
            String pool = "QueuedThreadPool@" + Integer.toHexString(System.identityHashCode(server.getThreadPool())) + " ";
            String idlePool = "QueuedThreadPool@" + Integer.toHexString(System.identityHashCode(idle.getThreadPool()))
                    + " ";
            assertThat(ServerPools.sizes()).as("the idle server's pool is seen").anySatisfy(
                    s -> assertThat(s.pool() + " ").endsWith(idlePool));
            List<String> looks = new ArrayList<>();
            for (int look = 0; look < 2; look++) {
                List<String> lines = watch.check();
                assertThat(lines).as("the idle server's pool holds none of the waiting requests")
                        .noneMatch(l -> l.contains(idlePool));
                looks.add(String.join("\n", lines.stream().filter(l -> l.contains(pool)).toList()));
            }
            release.countDown();
            for (CompletableFuture<HttpResponse<String>> a : answers) {
                assertThat(a.get(30, TimeUnit.SECONDS).body()).as("every request served").isEqualTo("done");
            }
            return looks;
        } finally {
            release.countDown();
            if (weaving != null) {
                weaving.reset();
            }
            ServerPools.configure(null, null);
            Scheduler.uninstall();
            server.stop();
            idle.stop();
        }
    }
}
