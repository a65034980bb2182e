package io.qosweaver.peers;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.FixedLimit;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.AbstractLimiter;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import java.util.Optional;

/**
 * Netflix concurrency-limits' partitioned limiter, keyed by a request's path: lowPath (and below) gets
 * lowShare of the limit, every other path the rest. The partition shares only bind while the whole limit
 * is in use; below it any partition may borrow (the library's documented behaviour). Shared by the servlet
 * filter ({@link ConcurrencyLimitFilter}) and the hook at the entry of Jetty 9.4 to 11 ({@link JettyChannelLimiter}).
 */
final class PathLimiter {
    static final String OTHER = "other";

    private final PeerArgs args;
    private final Limiter<String> limiter;

    /** The partitioned limiter's builder for paths (the role of the library's ServletLimiterBuilder). */
    static final class Builder extends AbstractPartitionedLimiter.Builder<Builder, String> {
        @Override
        protected Builder self() {
            return this;
        }
    }

    PathLimiter(PeerArgs args) {
        this.args = args;
        String low = args.lowPath();
        double otherShare = 1.0 - args.lowShare();
        if (args.lowShare() + otherShare > 1.0) {
            otherShare = Math.nextDown(otherShare); // the library wants the shares to sum to <= 1.0
        }
        Builder builder = new Builder()
                .named("qosweaver-peers")
                .partitionResolver(path -> PeerArgs.isUnder(path, low) ? low : OTHER)
                .partition(low, args.lowShare())
                .partition(OTHER, otherShare);
        switch (args.limit()) {
            case "fixed" -> builder.limit(FixedLimit.of(args.fixedLimit()));
            case "gradient2" -> builder.limit(Gradient2Limit.newDefault());
            default -> { } // vegas: the builder's own default, VegasLimit.newDefault()
        }
        this.limiter = builder.build();
    }

    /** A token for a request to {@code path}, or empty: refuse it. */
    Optional<Limiter.Listener> acquire(String path) {
        return limiter.acquire(path);
    }

    /** The parameters, as the install line shows them. */
    String describe() {
        String limit = switch (args.limit()) {
            case "fixed" -> "fixed:" + args.fixedLimit();
            case "gradient2" -> "gradient2 [Gradient2Limit defaults: initial 20, min 20, max 200]";
            default -> "vegas [library default: VegasLimit, initial 20, max 1000]";
        };
        return "lowPath=" + args.lowPath() + ", lowShare=" + args.lowShare() + ", limit=" + limit + ", 429 when over"
                + (args.switchFile() != null ? ", switchFile=" + args.switchFile() : "");
    }

    /** Requests holding a token now. */
    int inflight() {
        return ((AbstractLimiter<?>) limiter).getInflight();
    }

    /** The whole limit now. */
    int limit() {
        return ((AbstractLimiter<?>) limiter).getLimit();
    }
}
