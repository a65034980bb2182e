package io.qosweaver.peers;

import com.netflix.concurrency.limits.Limiter;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Peer {@code concurrency-limits} on Jetty 9.4, 10 and 11, where a request enters the server at
 * {@code Server.handle(HttpChannel)}: an application whose handlers are Jetty core handlers (Apache Tika
 * server's CXF transport) has no servlet context a filter could go in, so the token is taken there, before
 * the first handler, for every request, and given back when {@code handle} returns. A refused request is
 * answered as the servlet filter answers it (429, {@code Concurrency limit exceeded}) and marked handled, and
 * the server's handlers never see it.
 *
 * <p>Jetty is not on this module's class path for those versions (it builds against Jetty 12, whose classes
 * have the same names), so the channel, request and response are reached by reflection, looked up once per
 * class. Both {@code javax} (9.4, 10) and {@code jakarta} (11) servlet types work the same way.
 *
 * <p>Not covered: a request that goes asynchronous in a handler gives its token back when {@code handle}
 * returns, not when it completes (Tika's resources are synchronous).
 */
final class JettyChannelLimiter {
    /** What {@link #enter} returns for a refused request: the advice then skips {@code Server.handle}. */
    static final Object REFUSED = new Object();

    private final PathLimiter limiter;
    private final ClassValue<Accessors> accessors = new ClassValue<>() {
        @Override
        protected Accessors computeValue(Class<?> channelType) {
            return Accessors.of(channelType);
        }
    };

    private final PeerSwitch peerSwitch;

    JettyChannelLimiter(PeerArgs args, PeerSwitch peerSwitch) {
        this.limiter = new PathLimiter(args);
        this.peerSwitch = peerSwitch;
    }

    /** The reflective handles for one HttpChannel class and its request and response classes. */
    private record Accessors(Method getRequest, Method getResponse, Method requestUri, Method setHandled,
                             Method setStatus, Method setContentType, Method getWriter) {
        static Accessors of(Class<?> channelType) {
            try {
                Method getRequest = channelType.getMethod("getRequest");
                Method getResponse = channelType.getMethod("getResponse");
                Class<?> request = getRequest.getReturnType();
                Class<?> response = getResponse.getReturnType();
                return new Accessors(getRequest, getResponse, request.getMethod("getRequestURI"),
                        request.getMethod("setHandled", boolean.class), response.getMethod("setStatus", int.class),
                        response.getMethod("setContentType", String.class), response.getMethod("getWriter"));
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("not a Jetty 9.4 to 11 HttpChannel: " + channelType.getName()
                        + " (" + e.getMessage() + ")", e);
            }
        }
    }

    /**
     * At the start of {@code Server.handle(channel)}: a token (a {@link Limiter.Listener}) for the request, or
     * {@link #REFUSED} after answering it 429.
     */
    Object enter(Object channel) throws ReflectiveOperationException {
        if (!peerSwitch.on()) {
            return null; // switched off: the request goes through, no token
        }
        Accessors a = accessors.get(channel.getClass());
        Object request = a.getRequest().invoke(channel);
        Optional<Limiter.Listener> token = limiter.acquire((String) a.requestUri().invoke(request));
        if (token.isPresent()) {
            return token.get();
        }
        Object response = a.getResponse().invoke(channel);
        a.setStatus().invoke(response, ConcurrencyLimitFilter.TOO_MANY_REQUESTS);
        a.setContentType().invoke(response, "text/plain;charset=utf-8");
        ((PrintWriter) a.getWriter().invoke(response)).print("Concurrency limit exceeded");
        a.setHandled().invoke(request, true); // else the server would answer 404 after us
        return REFUSED;
    }

    /** When {@code Server.handle} returns or throws: gives the token back (a latency sample, or ignored). */
    static void exit(Object token, Throwable thrown) {
        if (token instanceof Limiter.Listener listener) {
            if (thrown == null) {
                listener.onSuccess();
            } else {
                listener.onIgnore();
            }
        }
    }

    String describe() {
        return limiter.describe();
    }

    /** The cause of a reflective call's failure, for the one error line. */
    static Throwable cause(Throwable t) {
        return t instanceof InvocationTargetException ite && ite.getCause() != null ? ite.getCause() : t;
    }
}
