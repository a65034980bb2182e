package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;

/**
 * The servlet integration's helper: {@code Servlet.service(ServletRequest, ServletResponse)} of
 * any container calls {@link #enter}. It reads the request through its public
 * {@code HttpServletRequest} interface (jakarta or javax), per request class, so that one helper
 * serves both servlet APIs without linking either.
 */
public final class ServletRequests {
    private ServletRequests() {}

    private static final int SERVLET_PATH = 0;
    private static final int PATH_INFO = 1;
    private static final int REQUEST_URI = 2;
    private static final int METHOD = 3;
    private static final int LOCAL_PORT = 4;
    private static final int HEADER = 5;

    private static final ClassValue<MethodHandle[]> API = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            Class<?> api = PublicApi.supertype(type, "jakarta.servlet.http.HttpServletRequest");
            if (api == null) {
                api = PublicApi.supertype(type, "javax.servlet.http.HttpServletRequest");
            }
            if (api == null) {
                return null;
            }
            try {
                return new MethodHandle[] {
                    PublicApi.method(api, "getServletPath"),
                    PublicApi.method(api, "getPathInfo"),
                    PublicApi.method(api, "getRequestURI"),
                    PublicApi.method(api, "getMethod"),
                    PublicApi.method(api, "getLocalPort"),
                    PublicApi.method(api, "getHeader", String.class)
                };
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    /** {@code HttpServletRequest.getHeader(name)}. */
    private static final class Headers implements RequestTaskClasses.HeaderReader {
        @Override
        public String header(Object request, String name) throws Throwable {
            return (String) API.get(request.getClass())[HEADER].invoke(request, name);
        }
    }

    private static final Headers HEADERS = new Headers();

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object request) {
        try {
            if (request == null) {
                return false;
            }
            MethodHandle[] h = API.get(request.getClass());
            if (h == null) {
                return false;
            }
            String servletPath = RequestTaskClasses.servletPathRows() ? servletPath(h, request) : null;
            if (!RequestTaskClasses.requestRows()) {
                return RequestTaskClasses.enter(null, null, 0, servletPath, request, null);
            }
            return RequestTaskClasses.enter((String) h[METHOD].invoke(request), (String) h[REQUEST_URI].invoke(request),
                    (int) h[LOCAL_PORT].invoke(request), servletPath, request, HEADERS);
        } catch (Throwable t) {
            return false;
        }
    }

    /** The path inside the context: servletPath + pathInfo, or the request URI when both are empty. */
    private static String servletPath(MethodHandle[] h, Object request) throws Throwable {
        String servletPath = (String) h[SERVLET_PATH].invoke(request);
        String pathInfo = (String) h[PATH_INFO].invoke(request);
        if (pathInfo == null || pathInfo.isEmpty()) {
            return servletPath == null || servletPath.isEmpty() ? (String) h[REQUEST_URI].invoke(request) : servletPath;
        }
        return servletPath == null || servletPath.isEmpty() ? pathInfo : servletPath + pathInfo;
    }
}
