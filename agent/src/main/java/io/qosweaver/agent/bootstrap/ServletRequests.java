package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;

/**
 * The servlet integration's helper: {@code Servlet.service(ServletRequest, ServletResponse)} of
 * any container calls {@link #enter}. It reads the request through its public
 * {@code HttpServletRequest} interface (jakarta or javax), per request class, so that one helper
 * serves both servlet APIs without linking either: the request URI for {@code request} classes,
 * and servletPath + pathInfo for {@code servletPath} classes.
 */
public final class ServletRequests {
    private ServletRequests() {}

    /** The request's access, and the two getters of the path inside the context. */
    private record Servlet(RequestAccess access, MethodHandle servletPath, MethodHandle pathInfo) {}

    private static final ClassValue<Servlet> API = new ClassValue<>() {
        @Override
        protected Servlet computeValue(Class<?> type) {
            Class<?> api = PublicApi.supertype(type, "jakarta.servlet.http.HttpServletRequest");
            if (api == null) {
                api = PublicApi.supertype(type, "javax.servlet.http.HttpServletRequest");
            }
            if (api == null) {
                return null;
            }
            try {
                return new Servlet(new RequestAccess(PublicApi.method(api, "getMethod"),
                        PublicApi.method(api, "getRequestURI"), PublicApi.method(api, "getLocalPort"),
                        PublicApi.method(api, "getHeader", String.class)),
                        PublicApi.method(api, "getServletPath"), PublicApi.method(api, "getPathInfo"));
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }
    };

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object request) {
        try {
            if (request == null) {
                return false;
            }
            Servlet s = API.get(request.getClass());
            if (s == null) {
                return false;
            }
            RequestAccess a = s.access();
            String servletPath = RequestTaskClasses.servletPathRows() ? servletPath(s, request) : null;
            if (!RequestTaskClasses.requestRows()) {
                return RequestTaskClasses.enter(null, null, 0, servletPath, request, null);
            }
            return RequestTaskClasses.enter(a.method(request), a.path(request), a.localPort(request), servletPath,
                    request, a);
        } catch (Throwable t) {
            return false;
        }
    }

    /** The path inside the context: servletPath + pathInfo, or the request URI when both are empty. */
    private static String servletPath(Servlet s, Object request) throws Throwable {
        String servletPath = (String) s.servletPath().invoke(request);
        String pathInfo = (String) s.pathInfo().invoke(request);
        if (pathInfo == null || pathInfo.isEmpty()) {
            return servletPath == null || servletPath.isEmpty() ? s.access().path(request) : servletPath;
        }
        return servletPath == null || servletPath.isEmpty() ? pathInfo : servletPath + pathInfo;
    }
}
