package io.qosweaver.api;

import io.qosweaver.api.internal.Bridge;
import io.qosweaver.api.internal.Link;
import java.util.concurrent.Callable;

/**
 * A CPU service fraction the application asks for (the paper's QThread, without subclassing
 * {@code Thread}): code run inside one of its scopes gets at least {@link #fraction()} of the
 * managed cores' time when the agent runs an {@code mtr-ls} policy. The threads inside scopes of
 * one share share its allotment; a share used by one thread is that thread's fraction.
 *
 * <pre>{@code
 * Share indexer = Shares.share("indexer", 0.2);
 * try (Share.Scope s = indexer.enter()) {
 *     ... // at most and at least 20 % of the managed cores while others want them
 * }
 * indexer.run(task);           // the same for a Runnable
 * indexer.setFraction(0.3);    // admitted like a new request, applied within one tick
 * }</pre>
 *
 * <p><b>Without the agent</b> (or under a policy without shares) scopes cost one volatile read and
 * run the code as if they were not there; admission ({@link ShareGroup}) is checked all the same.
 * <b>Hot path:</b> entering and leaving a scope allocate nothing and take no lock in the API (the
 * scope objects are this share's own; the scheduler's entry to a managed scope takes its lock as
 * every managed entry does). Scopes nest; the innermost share decides, until it closes.
 *
 * <p>The scheduler suspends a thread only at control points: woven by the agent's policy file,
 * or {@link Shares#controlPoint()} called by code that runs long without one.
 */
public final class Share implements AutoCloseable {
    private final String name;
    private final ShareGroup group;
    private volatile double fraction;
    /** The scheduler's handle, created at the first scope under the agent; then read-only. */
    private volatile Object handle;
    private volatile boolean closed;
    /** Returned by {@link #enter} when the scheduler was told; its close tells it too. */
    private final Scope bound = new Scope(true);
    /** Returned when there was no scheduler to tell: closing it must not pop someone else's scope. */
    private final Scope inert = new Scope(false);

    Share(String name, ShareGroup group, double fraction) {
        this.name = name;
        this.group = group;
        this.fraction = fraction;
    }

    /**
     * Opens a scope of this share on the calling thread; close it on the same thread
     * (try-with-resources). Allocates nothing.
     *
     * @throws IllegalStateException when the share is closed
     */
    public Scope enter() {
        if (closed) {
            throw new IllegalStateException("share '" + name + "' is closed; ask for a new one");
        }
        Link k = Bridge.link();
        if (k == null) {
            return inert;
        }
        Object h = handle;
        Bridge.enter(h != null ? h : bind(k));
        return bound;
    }

    /** Runs {@code task} inside a scope of this share. */
    public void run(Runnable task) {
        try (Scope s = enter()) {
            task.run();
        }
    }

    /** Calls {@code task} inside a scope of this share and returns what it returns. */
    public <T> T call(Callable<T> task) throws Exception {
        try (Scope s = enter()) {
            return task.call();
        }
    }

    public String name() {
        return name;
    }

    public double fraction() {
        return fraction;
    }

    /** The group this share belongs to; null for a top-level share. */
    public ShareGroup group() {
        return group.isRoot() ? null : group;
    }

    /**
     * Changes the fraction at run time: admitted against the group as a new request would be,
     * then handed to the scheduler without a lock (applied within one of its ticks, the new quantum
     * from the share's next move to the rear of the service list).
     *
     * @throws ShareRefusedException naming the numbers; nothing changes then
     * @throws IllegalArgumentException outside (0, 1]
     */
    public void setFraction(double f) {
        ShareGroup.checkFraction(f, "share '" + name + "'");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("share '" + name + "' is closed");
            }
            group.admit(fraction, f, "share '" + name + "'");
            fraction = f;
            Object h = handle;
            Link k = Bridge.link();
            if (h != null && k != null) {
                k.setFraction(h, f);
            }
        }
    }

    /**
     * Gives the fraction back to the group; the share cannot be entered any more. Scopes still
     * open keep running under it until they close.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        group.giveBack(fraction);
    }

    private synchronized Object bind(Link k) {
        Object h = handle;
        if (h == null) {
            h = k.newShare(name, fraction);
            handle = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return "Share[" + name + ", " + ShareGroup.percent(fraction) + "]";
    }

    /** An open scope of a share; closing it leaves the scope. One per share, reused: no allocation. */
    public final class Scope implements AutoCloseable {
        private final boolean told;

        private Scope(boolean told) {
            this.told = told;
        }

        /** The share this scope belongs to. */
        public Share share() {
            return Share.this;
        }

        /** Leaves the scope on the calling thread (the innermost one it opened). */
        @Override
        public void close() {
            if (told) {
                Bridge.exit();
            }
        }
    }
}
