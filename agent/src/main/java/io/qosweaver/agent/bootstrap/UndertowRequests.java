package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The Undertow integration's helper: {@code io.undertow.server.Connectors.executeRootHandler(
 * HttpHandler, HttpServerExchange)} calls {@link #enter} whenever a request's handler chain starts
 * or is dispatched, once the request line and headers are parsed. Only a worker (blocking) thread
 * is classified: on an IO thread, which serves many connections in turn, a task class could park
 * every one of them; a handler that dispatches to a worker ({@code exchange.dispatch(...)}, as every
 * blocking handler and the servlet layer do) enters {@code executeRootHandler} again there.
 * It reads {@code HttpServerExchange}: {@code getRequestMethod().toString()}, {@code getRequestURI()}
 * (its path only, when a client sent an absolute URI), {@code getDestinationAddress().getPort()}
 * and {@code getRequestHeaders().getFirst(name)}.
 */
public final class UndertowRequests {
    private UndertowRequests() {}

    /** The exchange's access, and {@code isInIoThread()}. */
    private static final class Undertow {
        final RequestAccess access;
        final MethodHandle inIoThread;

        Undertow(RequestAccess access, MethodHandle inIoThread) {
            this.access = access;
            this.inIoThread = inIoThread.asType(MethodType.methodType(boolean.class, Object.class));
        }
    }

    private static final ClassValue<Undertow> API = new ClassValue<>() {
        @Override
        protected Undertow computeValue(Class<?> type) {
            Class<?> api = PublicApi.supertype(type, "io.undertow.server.HttpServerExchange");
            if (api == null) {
                return null;
            }
            try {
                MethodHandle method = PublicApi.method(api, "getRequestMethod");
                MethodHandle address = PublicApi.method(api, "getDestinationAddress");
                MethodHandle headers = PublicApi.method(api, "getRequestHeaders");
                MethodHandle pathOnly = MethodHandles.lookup().findStatic(UndertowRequests.class, "pathOnly",
                        MethodType.methodType(String.class, String.class));
                MethodHandle text = PublicApi.method(method.type().returnType(), "toString");
                MethodHandle port = PublicApi.method(address.type().returnType(), "getPort");
                MethodHandle first = PublicApi.method(headers.type().returnType(), "getFirst", String.class);
                return new Undertow(new RequestAccess(MethodHandles.filterReturnValue(method, text),
                        MethodHandles.filterReturnValue(PublicApi.method(api, "getRequestURI"), pathOnly),
                        MethodHandles.filterReturnValue(address, port),
                        MethodHandles.filterArguments(first, 0, headers)),
                        PublicApi.method(api, "isInIoThread"));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object exchange) {
        try {
            if (exchange == null) {
                return false;
            }
            Undertow u = API.get(exchange.getClass());
            return u != null && !(boolean) u.inIoThread.invokeExact(exchange)
                    && RequestAccess.enter(exchange, u.access);
        } catch (Throwable t) {
            return false;
        }
    }

    /** {@code http://host:port/a/b} to {@code /a/b}; a path as it is. */
    private static String pathOnly(String uri) {
        if (uri == null || uri.isEmpty() || uri.charAt(0) == '/') {
            return uri;
        }
        int scheme = uri.indexOf("://");
        if (scheme < 0) {
            return uri;
        }
        int slash = uri.indexOf('/', scheme + 3);
        return slash < 0 ? "/" : uri.substring(slash);
    }
}
