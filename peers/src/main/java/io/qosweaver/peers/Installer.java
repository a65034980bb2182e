package io.qosweaver.peers;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletMapping;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;

/**
 * Decides, on each {@code Server#setHandler}, whether this is the application's server (its handler is or
 * holds an ee10 {@link ServletContextHandler} with a servlet mapped at lowPath) and installs the peer there.
 * Any other server (in the river monitor: the sensor generator at {@code /sensors/*}) is left alone.
 */
public final class Installer {

    /** What to give the server instead of its handler, the line that says so, and the peer's on/off switch. */
    public record Installation(Handler handler, String line, PeerSwitch peerSwitch) {}

    private static final Set<ServletContextHandler> INSTALLED = Collections.newSetFromMap(new IdentityHashMap<>());
    private static boolean noted;

    private Installer() {}

    /** The hook's work: the handler to set, after printing the install line (or the note, once). */
    static synchronized Object onSetHandler(PeerArgs args, Object wrapper, Object handler) {
        if (!(wrapper instanceof Server server) || !(handler instanceof Handler h)) {
            return handler;
        }
        try {
            Installation done = install(args, server, h);
            if (done != null) {
                System.err.println(done.line());
                return done.handler();
            }
            if (!noted && INSTALLED.isEmpty()) {
                noted = true;
                System.err.println(PeersAgent.PREFIX + "note: " + describe(h)
                        + " has no servlet mapping for lowPath=" + args.lowPath()
                        + ": that server is left alone (" + args.peer() + " goes on the first one that has)");
            }
        } catch (Throwable t) {
            System.err.println(PeersAgent.PREFIX + "error: could not install " + args.peer() + ": " + t);
        }
        return handler;
    }

    /**
     * Installs the peer for {@code server.setHandler(handler)}: returns the handler to set instead (the same
     * one, augmented, for concurrency-limits; a QoSHandler around it for jetty-qos), or null when the handler
     * holds no servlet context mapping lowPath or the peer is already on it.
     */
    public static synchronized Installation install(PeerArgs args, Server server, Handler handler) {
        ServletContextHandler context = null;
        String mapping = null;
        for (ServletContextHandler c : contexts(handler)) {
            mapping = mappingFor(c, args.lowPath());
            if (mapping != null) {
                context = c;
                break;
            }
        }
        if (context == null && args.anyContext()) {
            List<ServletContextHandler> all = contexts(handler);
            if (!all.isEmpty()) {
                context = all.get(0);
                mapping = "(any path: anyContext=true)";
            }
        }
        if (context == null || INSTALLED.contains(context)) {
            return null;
        }
        String where = context.getClass().getSimpleName() + " \"" + context.getContextPath() + "\" mapping \""
                + mapping + "\"";
        Installation done;
        PeerSwitch peerSwitch = PeerSwitch.of(args);
        if (args.peer().equals(PeerArgs.JETTY_QOS)) {
            String contextPath = context.getContextPath();
            String prefix = (contextPath == null || contextPath.equals("/") ? "" : contextPath) + args.lowPath();
            JettyQoS.PriorityQoSHandler qos = JettyQoS.wrap(handler, prefix, args, peerSwitch);
            done = new Installation(qos, PeersAgent.PREFIX + PeerArgs.JETTY_QOS + " installed on " + where + " ("
                    + JettyQoS.describe(qos, server, prefix, args) + ")", peerSwitch);
        } else {
            ConcurrencyLimitFilter filter = ConcurrencyLimitFilter.addTo(context, args, peerSwitch);
            done = new Installation(handler, PeersAgent.PREFIX + PeerArgs.CONCURRENCY_LIMITS + " installed on "
                    + where + " (" + filter.describe() + ")", peerSwitch);
        }
        INSTALLED.add(context);
        peerSwitch.watch();
        return done;
    }

    /** The handler's class, with the context path and servlet path specs of a servlet context. */
    private static String describe(Handler handler) {
        if (!(handler instanceof ServletContextHandler c)) {
            return handler.getClass().getSimpleName();
        }
        List<String> specs = new ArrayList<>();
        ServletMapping[] mappings = c.getServletHandler().getServletMappings();
        if (mappings != null) {
            for (ServletMapping m : mappings) {
                if (m.getPathSpecs() != null) {
                    specs.addAll(List.of(m.getPathSpecs()));
                }
            }
        }
        return c.getClass().getSimpleName() + " \"" + c.getContextPath() + "\" " + specs;
    }

    /** Forgets what was installed and noted (for tests). */
    static synchronized void reset() {
        INSTALLED.clear();
        noted = false;
    }

    private static List<ServletContextHandler> contexts(Handler handler) {
        List<ServletContextHandler> all = new ArrayList<>();
        if (handler instanceof ServletContextHandler c) {
            all.add(c);
        }
        if (handler instanceof Handler.Container container) {
            all.addAll(container.getDescendants(ServletContextHandler.class));
        }
        return all;
    }

    /** The context's servlet path spec that serves lowPath ({@code /chart} or {@code /chart/*}), or null. */
    static String mappingFor(ServletContextHandler context, String lowPath) {
        ServletMapping[] mappings = context.getServletHandler().getServletMappings();
        if (mappings == null) {
            return null;
        }
        for (ServletMapping m : mappings) {
            String[] specs = m.getPathSpecs();
            if (specs == null) {
                continue;
            }
            for (String spec : specs) {
                if (spec.equals(lowPath)) {
                    return spec;
                }
                // a prefix mapping at or above lowPath, but not the catch-all /*
                if (spec.endsWith("/*") && spec.length() > 2
                        && PeerArgs.isUnder(lowPath, spec.substring(0, spec.length() - 2))) {
                    return spec;
                }
            }
        }
        return null;
    }
}
