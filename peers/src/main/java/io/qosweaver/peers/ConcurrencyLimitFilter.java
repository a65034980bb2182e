package io.qosweaver.peers;

import com.netflix.concurrency.limits.Limiter;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Optional;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.FilterMapping;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHandler;

/**
 * Peer {@code concurrency-limits}: a jakarta.servlet {@link Filter} over Netflix's concurrency-limits core,
 * doing what the library's javax-only servlet filter does. Each request acquires a token from a limiter
 * partitioned by path: lowPath gets lowShare of the limit, every other path the rest. No token: 429 at once.
 * The partition shares only bind while the whole limit is in use; below it any partition may borrow.
 */
public final class ConcurrencyLimitFilter implements Filter {

    static final int TOO_MANY_REQUESTS = 429;
    static final String OTHER = PathLimiter.OTHER;
    static final String FILTER_NAME = "qosweaver-peers-concurrency-limits";

    private final PathLimiter limiter;
    private final PeerSwitch peerSwitch;

    ConcurrencyLimitFilter(PeerArgs args, PeerSwitch peerSwitch) {
        this.limiter = new PathLimiter(args);
        this.peerSwitch = peerSwitch;
    }

    /** Adds the filter in front of all others, for /* and REQUEST dispatches; the context is not started yet. */
    static ConcurrencyLimitFilter addTo(ServletContextHandler context, PeerArgs args, PeerSwitch peerSwitch) {
        ConcurrencyLimitFilter filter = new ConcurrencyLimitFilter(args, peerSwitch);
        FilterHolder holder = new FilterHolder(filter);
        holder.setName(FILTER_NAME);
        FilterMapping mapping = new FilterMapping();
        mapping.setFilterName(FILTER_NAME);
        mapping.setPathSpec("/*");
        mapping.setDispatcherTypes(EnumSet.of(DispatcherType.REQUEST));
        ServletHandler handler = context.getServletHandler();
        handler.addFilter(holder);
        handler.prependFilterMapping(mapping);
        return filter;
    }

    private static String pathInContext(HttpServletRequest request) {
        String servletPath = request.getServletPath();
        String pathInfo = request.getPathInfo();
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        if (path.isEmpty()) {
            // no servlet matched: an app that serves from a filter of its own (Fuseki); the path in the context
            String uri = request.getRequestURI();
            String context = request.getContextPath();
            path = uri != null && context != null && uri.startsWith(context) ? uri.substring(context.length()) : "";
        }
        return path;
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!peerSwitch.on()) {
            chain.doFilter(request, response); // switched off: no token taken, no latency sample given
            return;
        }
        Optional<Limiter.Listener> token = limiter.acquire(pathInContext((HttpServletRequest) request));
        if (token.isEmpty()) {
            HttpServletResponse http = (HttpServletResponse) response;
            http.setStatus(TOO_MANY_REQUESTS);
            http.setContentType("text/plain;charset=utf-8");
            http.getWriter().print("Concurrency limit exceeded");
            return;
        }
        Limiter.Listener listener = token.get();
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            listener.onIgnore();
            throw e;
        }
        listener.onSuccess();
    }

    /** The parameters, as the install line shows them. */
    String describe() {
        return limiter.describe();
    }

    /** Requests holding a token now (for tests). */
    int inflight() {
        return limiter.inflight();
    }

    /** The whole limit now (for tests). */
    int limit() {
        return limiter.limit();
    }
}
