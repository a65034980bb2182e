package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;

/**
 * The Jetty 12 integration's helper: {@code org.eclipse.jetty.server.Server.handle(Request,
 * Response, Callback)} calls {@link #enter} on the thread that handles the request, right after
 * Jetty parsed its request line and headers, before any handler (the servlet layer of ee8, ee9 and
 * ee10, or a core {@code Handler} with no servlet at all). It reads the core
 * {@code org.eclipse.jetty.server.Request}: {@code getMethod()}, {@code getHttpURI().getPath()},
 * {@code Request.getLocalPort(request)} and {@code getHeaders().get(name)}.
 */
public final class Jetty12Requests {
    private Jetty12Requests() {}

    private static final int METHOD = 0;
    private static final int URI = 1;
    private static final int PATH = 2;
    private static final int LOCAL_PORT = 3;
    private static final int HEADERS = 4;
    private static final int HEADER = 5;

    private static final ClassValue<MethodHandle[]> API = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            Class<?> api = PublicApi.supertype(type, "org.eclipse.jetty.server.Request");
            if (api == null) {
                return null;
            }
            try {
                MethodHandle uri = PublicApi.method(api, "getHttpURI");
                MethodHandle headers = PublicApi.method(api, "getHeaders");
                return new MethodHandle[] {
                    PublicApi.method(api, "getMethod"),
                    uri,
                    PublicApi.method(uri.type().returnType(), "getPath"),
                    PublicApi.method(api, "getLocalPort", api),
                    headers,
                    PublicApi.method(headers.type().returnType(), "get", String.class)
                };
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    /** {@code request.getHeaders().get(name)}. */
    private static final class Headers implements RequestTaskClasses.HeaderReader {
        @Override
        public String header(Object request, String name) throws Throwable {
            MethodHandle[] h = API.get(request.getClass());
            return (String) h[HEADER].invoke(h[HEADERS].invoke(request), name);
        }
    }

    private static final Headers HEADER_READER = new Headers();

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object request) {
        try {
            if (request == null || !RequestTaskClasses.requestRows()) {
                return false;
            }
            MethodHandle[] h = API.get(request.getClass());
            if (h == null) {
                return false;
            }
            return RequestTaskClasses.enter((String) h[METHOD].invoke(request),
                    (String) h[PATH].invoke(h[URI].invoke(request)), (int) h[LOCAL_PORT].invoke(request), null, request,
                    HEADER_READER);
        } catch (Throwable t) {
            return false;
        }
    }
}
