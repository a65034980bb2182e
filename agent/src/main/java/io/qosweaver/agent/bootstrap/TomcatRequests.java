package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;

/**
 * The Tomcat integration's helper: {@code org.apache.catalina.connector.CoyoteAdapter.service} and
 * {@code asyncDispatch} call {@link #enter} on the thread that handles the request, once Coyote has
 * parsed its request line and headers and before Catalina maps it to a context or servlet. It
 * reads {@code org.apache.coyote.Request}, whose API is the same in Tomcat 9, 10 and 11:
 * {@code method().toString()}, {@code requestURI().toString()} (Tomcat caches both strings, which
 * it makes later anyway), {@code getLocalPort()} and {@code getHeader(name)}.
 */
public final class TomcatRequests {
    private TomcatRequests() {}

    private static final int METHOD = 0;
    private static final int URI = 1;
    private static final int TO_STRING = 2;
    private static final int LOCAL_PORT = 3;
    private static final int HEADER = 4;

    private static final ClassValue<MethodHandle[]> API = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            Class<?> api = PublicApi.supertype(type, "org.apache.coyote.Request");
            if (api == null) {
                return null;
            }
            try {
                MethodHandle method = PublicApi.method(api, "method");
                return new MethodHandle[] {
                    method,
                    PublicApi.method(api, "requestURI"),
                    PublicApi.method(method.type().returnType(), "toString"),
                    PublicApi.method(api, "getLocalPort"),
                    PublicApi.method(api, "getHeader", String.class)
                };
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    /** {@code request.getHeader(name)}. */
    private static final class Headers implements RequestTaskClasses.HeaderReader {
        @Override
        public String header(Object request, String name) throws Throwable {
            return (String) API.get(request.getClass())[HEADER].invoke(request, name);
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
            return RequestTaskClasses.enter((String) h[TO_STRING].invoke(h[METHOD].invoke(request)),
                    (String) h[TO_STRING].invoke(h[URI].invoke(request)), (int) h[LOCAL_PORT].invoke(request), null,
                    request, HEADER_READER);
        } catch (Throwable t) {
            return false;
        }
    }
}
