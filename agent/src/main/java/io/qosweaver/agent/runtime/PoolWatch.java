package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.ServerPools;
import io.qosweaver.agent.log.AgentLog;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Says when requests waiting at entry fill a server's thread pool. A request that waits at its
 * entry ({@code suspendAtEntry}, the admission policies) holds the server thread that serves it;
 * once such requests hold half of a pool's threads or more, a request of another class can find no
 * thread free and queue inside the server, before any classification, where no policy reaches it:
 * Fuseki's Jetty pool of 20 had 14 held so, and the light requests' p99 was the heavy requests'
 * length (bench/results/mixed-fuseki/nice-2026-11-28/). Every {@link #PERIOD_SECONDS} seconds, on
 * its own daemon thread, it compares the scheduler's peak of waiting requests since the last look
 * with the maximum of every server pool seen (those of {@code threadPools} and those the pool watch
 * of {@link PolicyWeaving#watchedPools} sees), and says it once per pool and maximum. A pool is
 * named only when at least half of its threads are busy at the look as well: the peak counts the
 * waiting requests of every server of the process, and the waiting threads of one server do not
 * fill another's pool (the river monitor's 41 waiting charts were reported against its sensor
 * generator's idle pool of 32). A pool that does not say how many of its threads are busy is
 * judged on the peak alone.
 */
final class PoolWatch {
    static final int PERIOD_SECONDS = 5;

    private final AgentLog log;
    private final Set<String> said = new HashSet<>();
    private ScheduledExecutorService timer;

    PoolWatch(AgentLog log) {
        this.log = log;
    }

    /** Looks every {@link #PERIOD_SECONDS} seconds from now on; idempotent. */
    synchronized void start() {
        if (timer != null) {
            return;
        }
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "qosweaver-pool-watch");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                check();
            } catch (RuntimeException | LinkageError e) {
                // a look that failed (a pool that threw from its getter) must not end the next ones
            }
        }, PERIOD_SECONDS, PERIOD_SECONDS, TimeUnit.SECONDS);
    }

    /** One look: the warnings due now, each logged loudly and said once per pool and maximum. */
    synchronized List<String> check() {
        int peak = SchedulerGateway.takeAtEntryPeak();
        if (peak == 0) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (ServerPools.Size p : ServerPools.sizes()) {
            boolean couldHoldThem = p.busy() < 0 || 2 * p.busy() >= p.max();
            if (2 * peak >= p.max() && couldHoldThem && said.add(p.pool() + " " + p.max())) {
                String line = peak + " requests waited at entry at once, each holding the server thread that serves"
                        + " it, and the " + p.server() + " pool " + p.pool() + " has at most " + p.max() + " threads:"
                        + " requests of other classes may find none free and queue inside the server, where no"
                        + " policy sees them. Give the pool room in the policy file: aspects: threadPools:"
                        + " [{server: " + p.server() + ", max: " + (p.max() + peak) + "}] or more";
                log.loud(line);
                out.add(line);
            }
        }
        return out;
    }
}
