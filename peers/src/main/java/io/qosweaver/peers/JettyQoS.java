package io.qosweaver.peers;

import java.time.Duration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ThreadPool;

/**
 * Peer {@code jetty-qos}: Jetty 12's own {@link QoSHandler} around the application's handler. At most
 * maxRequests requests run at once; the others are suspended (no thread held) in one queue per priority
 * and resumed highest priority first, FIFO within a priority. Requests under lowPath get priority 0 (the
 * lowest), all others priority 1.
 */
public final class JettyQoS {

    static final int LOW = 0;
    static final int HIGH = 1;

    private JettyQoS() {}

    /** The QoSHandler around {@code handler}; lowPrefix is lowPath with the context path in front. */
    public static PriorityQoSHandler wrap(Handler handler, String lowPrefix, PeerArgs args, PeerSwitch peerSwitch) {
        PriorityQoSHandler qos = new PriorityQoSHandler(handler, lowPrefix, peerSwitch);
        if (args.maxRequests() > 0) {
            qos.setMaxRequestCount(args.maxRequests());
        }
        if (args.maxSuspendMs() >= 0) {
            qos.setMaxSuspend(Duration.ofMillis(args.maxSuspendMs()));
        }
        return qos;
    }

    static String describe(QoSHandler qos, Server server, String lowPrefix, PeerArgs args) {
        String max;
        if (args.maxRequests() > 0) {
            max = "maxRequests=" + args.maxRequests();
        } else {
            // what QoSHandler.doStart() will pick when maxRequestCount <= 0, from the pool as it is now
            ThreadPool pool = server.getThreadPool();
            max = pool instanceof ThreadPool.SizedThreadPool sized
                    ? "maxRequests=" + sized.getMaxThreads() / 2 + " [Jetty default: maxThreads " + sized.getMaxThreads()
                            + " / 2]"
                    : "maxRequests=" + Runtime.getRuntime().availableProcessors() + " [Jetty default: cores]";
        }
        Duration suspend = qos.getMaxSuspend();
        String wait = "maxSuspendMs=" + suspend.toMillis() + " [" + (args.maxSuspendMs() >= 0 ? "" : "Jetty default: ")
                + (suspend.isZero() ? "wait forever" : "then 503") + "]";
        return "lowPath=" + lowPrefix + " priority " + LOW + ", others " + HIGH + ", " + max + ", " + wait
                + ", maxSuspended=" + qos.getMaxSuspendedRequestCount() + " [Jetty default, then 503]"
                + (args.switchFile() != null ? ", switchFile=" + args.switchFile() : "");
    }

    /**
     * QoSHandler whose priority is the lowest for paths under lowPath and the highest for the rest; while its
     * switch is off, requests go straight to the application's handler, never counted (QoSHandler's limit
     * cannot change once started).
     */
    public static final class PriorityQoSHandler extends QoSHandler {
        private final String lowPrefix;
        private final PeerSwitch peerSwitch;

        PriorityQoSHandler(Handler handler, String lowPrefix, PeerSwitch peerSwitch) {
            super(handler);
            this.lowPrefix = lowPrefix;
            this.peerSwitch = peerSwitch;
        }

        @Override
        public boolean onConditionsMet(Request request, Response response, Callback callback) throws Exception {
            return peerSwitch.on() ? super.onConditionsMet(request, response, callback)
                    : nextHandler(request, response, callback);
        }

        @Override
        protected int getPriority(Request request) {
            return PeerArgs.isUnder(Request.getPathInContext(request), lowPrefix) ? LOW : HIGH;
        }
    }
}
