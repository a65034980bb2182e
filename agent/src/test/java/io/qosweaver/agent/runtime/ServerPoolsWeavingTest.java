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
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.AbstractProtocol;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Test;

/**
 * The {@code threadPools} aspect in process, with the real weaving, a real Jetty 12 and a real
 * embedded Tomcat: servers running before the weaving and one started after it take the policy's
 * sizes, read back through the servers' own public API, take new sizes from a swap that weaves
 * the same, and get their own back when the policy is swapped for one without the section.
 */
class ServerPoolsWeavingTest {
    private static final String BASE = """
            taskClasses:
              - name: t
                entry: execution(void nowhere.Missing.run())
            policy:
              name: importance
            """;
    private static final String POOLS = BASE + """
            aspects:
              threadPools:
                - server: jetty
                  min: 3
                  max: 7
                  idleTimeout: 12s
                - server: tomcat
                  min: 2
                  max: 9
                  idleTimeout: 15s
            """;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private static Server jetty(QueuedThreadPool pool) throws Exception {
        Server server = new Server(pool);
        ServerConnector c = new ServerConnector(server, 1, 1);
        c.setHost("127.0.0.1");
        c.setPort(0);
        server.addConnector(c);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        return server;
    }

    private static int port(Server server) {
        return ((ServerConnector) server.getConnectors()[0]).getLocalPort();
    }

    private static void get(int port) throws Exception {
        HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.discarding());
    }

    /** Requests until {@code value} is {@code expected} (a running pool is seen when it dispatches), at most 20 s. */
    private static void awaitThroughRequests(int port, IntSupplier value, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (value.getAsInt() != expected && System.nanoTime() < deadline) {
            get(port);
            Thread.sleep(20);
        }
    }

    private static List<Integer> values(Server server) {
        QueuedThreadPool p = (QueuedThreadPool) server.getThreadPool();
        return List.of(p.getMinThreads(), p.getMaxThreads(), p.getIdleTimeout());
    }

    private static List<Long> values(Connector connector) {
        AbstractProtocol<?> p = (AbstractProtocol<?>) connector.getProtocolHandler();
        var executor = (org.apache.tomcat.util.threads.ThreadPoolExecutor) p.getExecutor();
        return List.of((long) p.getMinSpareThreads(), (long) p.getMaxThreads(), (long) executor.getCorePoolSize(),
                (long) executor.getMaximumPoolSize(), executor.getKeepAliveTime(TimeUnit.MILLISECONDS));
    }

    @Test
    void runningAndLaterPoolsAreSizedResizedAndGetTheirOwnValuesBackOnASwap() throws Exception {
        Instrumentation inst = ByteBuddyAgent.install();
        AgentLog log = new AgentLog(new PrintStream(new ByteArrayOutputStream()), false);
        Server before = jetty(new QueuedThreadPool(40, 5, 60_000));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(Files.createTempDirectory("pools-tomcat").toString());
        Connector connector = new Connector();
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        connector.setProperty("maxThreads", "30");
        connector.setProperty("minSpareThreads", "4");
        tomcat.setConnector(connector);
        tomcat.start();
        Server after = null;
        Weaving weaving = null;
        try {
            get(port(before));
            List<Long> tomcatOwn = values(connector);
            assertThat(tomcatOwn).containsExactly(4L, 30L, 4L, 30L, 60_000L);
            PolicyFile pools = PolicyFile.parse("pools.yaml", POOLS);
            Scheduler.install(SchedulerGateway.configOf(pools));
            weaving = PolicyWeaving.install(inst, pools, log);

            awaitThroughRequests(port(before), () -> values(before).get(1), 7);
            assertThat(values(before)).as("a pool running before the weaving").containsExactly(3, 7, 12_000);
            awaitThroughRequests(connector.getLocalPort(), () -> values(connector).get(1).intValue(), 9);
            assertThat(values(connector)).as("Tomcat's pool running before the weaving")
                    .containsExactly(2L, 9L, 2L, 9L, 15_000L);
            after = jetty(new QueuedThreadPool(30, 4, 45_000));
            assertThat(values(after)).as("a pool started after the weaving, right after its start")
                    .containsExactly(3, 7, 12_000);
            assertThat(ServerPools.describe())
                    .contains("threadPool jetty org.eclipse.jetty.util.thread.QueuedThreadPool@")
                    .contains(": min 3, max 7, idleTimeout 12000 ms (was min 5, max 40, idleTimeout 60000 ms)")
                    .contains(": min 3, max 7, idleTimeout 12000 ms (was min 4, max 30, idleTimeout 45000 ms)")
                    .contains(": min 2, max 9, idleTimeout 15000 ms (was min 4, max 30, idleTimeout 60000 ms)");
            // the same for ctl status --json
            assertThat(ServerPools.states()).anySatisfy(m -> {
                assertThat(m).containsEntry("server", "tomcat").containsEntry("min", 2).containsEntry("max", 9)
                        .containsEntry("idleTimeoutMs", 15_000).containsEntry("was",
                                java.util.Map.of("min", 4, "max", 30, "idleTimeoutMs", 60_000))
                        .doesNotContainKey("note");
                assertThat((String) m.get("pool")).startsWith("org.apache.tomcat.util.net.");
            }).anySatisfy(m -> assertThat(m).containsEntry("server", "jetty").containsEntry("min", 3)
                    .containsEntry("max", 7).containsEntry("idleTimeoutMs", 12_000)
                    .containsEntry("was", java.util.Map.of("min", 5, "max", 40, "idleTimeoutMs", 60_000)));
            assertThat(ServerPools.found(ServerPools.JETTY)).isGreaterThanOrEqualTo(2);
            assertThat(ServerPools.found(ServerPools.TOMCAT)).isGreaterThanOrEqualTo(1);

            // new sizes only: the same weaving kept, the values given to every pool, the originals kept
            PolicyFile resized = PolicyFile.parse("resized.yaml", POOLS.replace("max: 7", "max: 6"));
            assertThat(PolicyWeaving.sameWeaving(pools, resized)).isTrue();
            PolicyWeaving.adopt(weaving, resized);
            assertThat(values(before)).containsExactly(3, 6, 12_000);
            assertThat(values(after)).containsExactly(3, 6, 12_000);

            // a swap to a file without the section: the weaving replaced, every pool's own values back
            PolicyFile plain = PolicyFile.parse("plain.yaml", BASE);
            weaving.detach();
            Weaving next = PolicyWeaving.install(inst, plain, log);
            weaving.restoreLeftovers(next);
            weaving = next;
            assertThat(values(before)).containsExactly(5, 40, 60_000);
            assertThat(values(after)).containsExactly(4, 30, 45_000);
            assertThat(values(connector)).isEqualTo(tomcatOwn);
            assertThat(ServerPools.states()).isNotEmpty().allSatisfy(m -> assertThat(m).doesNotContainKey("was"));
        } finally {
            if (weaving != null) {
                weaving.reset();
            }
            ServerPools.configure(null, null);
            Scheduler.uninstall();
            before.stop();
            if (after != null) {
                after.stop();
            }
            tomcat.stop();
            tomcat.destroy();
        }
    }
}
