package io.qosweaver.agent.bootstrap;

import io.qosweaver.scheduler.QoS;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.regex.Pattern;

/**
 * The table behind the task classes that select requests ({@code request:} and
 * {@code servletPath:} in the policy file), and the servlet integration's entry. Advice woven into
 * servers and servlets of any class loader calls it, so it sits on the bootstrap class path next
 * to the scheduler and depends on nothing but the JDK and {@link QoS}.
 *
 * <p>Rows are tried in the file's order; the first that matches wins. A request row holds a list
 * of paths (servlet-mapping rules on the request path), of methods, header conditions and a port;
 * every condition given must hold. A servlet-path row matches the path inside the servlet context
 * (servletPath + pathInfo), known only where a servlet runs.
 *
 * <p>Matching allocates nothing for paths, methods, ports and exact header values; a header
 * regular expression allocates its {@code Matcher}.
 */
public final class RequestTaskClasses {
    private RequestTaskClasses() {}

    /** One row: a task class and what it selects. Built by the agent from the policy file. */
    public static final class Selector {
        final String taskClass;
        final boolean servletPath;
        final boolean anyPath;
        final String[] exact;
        final String[] prefixes;
        final String[] extensions;
        final String[] methods;
        final String[] headerNames;
        final String[] headerValues;
        final Pattern[] headerRegexes;
        final int port;

        /**
         * @param servletPath   {@code paths} apply to the path inside the servlet context, and no
         *                      other condition may be given
         * @param paths         servlet-mapping patterns ({@code /x}, {@code /x/*}, {@code *.ext}); empty for any
         * @param methods       empty for any
         * @param headerNames   header conditions: names, and per name an exact value or a regular
         *                      expression (the other null)
         * @param port          0 for any
         */
        public Selector(String taskClass, boolean servletPath, String[] paths, String[] methods, String[] headerNames,
                String[] headerValues, String[] headerRegexes, int port) {
            this.taskClass = taskClass;
            this.servletPath = servletPath;
            int e = 0;
            int p = 0;
            int x = 0;
            boolean any = paths.length == 0;
            for (String s : paths) {
                if (s.equals("/*")) {
                    any = true;
                } else if (s.startsWith("*.")) {
                    x++;
                } else if (s.endsWith("/*")) {
                    p++;
                } else {
                    e++;
                }
            }
            this.anyPath = any;
            this.exact = new String[e];
            this.prefixes = new String[p];
            this.extensions = new String[x];
            e = 0;
            p = 0;
            x = 0;
            for (String s : paths) {
                if (s.equals("/*")) {
                    continue;
                }
                if (s.startsWith("*.")) {
                    extensions[x++] = s.substring(1);
                } else if (s.endsWith("/*")) {
                    prefixes[p++] = s.substring(0, s.length() - 2);
                } else {
                    exact[e++] = s;
                }
            }
            this.methods = methods.clone();
            this.headerNames = headerNames.clone();
            this.headerValues = headerValues.clone();
            this.headerRegexes = new Pattern[headerRegexes.length];
            for (int i = 0; i < headerRegexes.length; i++) {
                this.headerRegexes[i] = headerRegexes[i] == null ? null : Pattern.compile(headerRegexes[i]);
            }
            this.port = port;
        }

        boolean pathMatches(String path) {
            if (anyPath) {
                return true;
            }
            if (path == null) {
                return false;
            }
            for (String s : exact) {
                if (path.equals(s)) {
                    return true;
                }
            }
            for (String s : prefixes) {
                if (path.startsWith(s) && (path.length() == s.length() || path.charAt(s.length()) == '/')) {
                    return true;
                }
            }
            for (String s : extensions) {
                if (path.endsWith(s)) {
                    return true;
                }
            }
            return false;
        }

        boolean requestMatches(String method, String path, int localPort, Object request, HeaderReader headers)
                throws Throwable {
            if (port != 0 && port != localPort) {
                return false;
            }
            if (methods.length > 0) {
                boolean found = false;
                for (String m : methods) {
                    if (m.equals(method)) {
                        found = true;
                        break;
                    }
                }
                if (!found) {
                    return false;
                }
            }
            if (!pathMatches(path)) {
                return false;
            }
            for (int i = 0; i < headerNames.length; i++) {
                String v = headers == null ? null : headers.header(request, headerNames[i]);
                if (v == null || (headerRegexes[i] != null ? !headerRegexes[i].matcher(v).matches()
                        : !v.equals(headerValues[i]))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Reads one header of a server's request object; one stateless instance per integration. */
    public interface HeaderReader {
        /** The header's first value, or null when absent. */
        String header(Object request, String name) throws Throwable;
    }

    /** The rows, and which kinds they hold (so that an integration reads only what some row needs). */
    private static final class Table {
        final Selector[] rows;
        final boolean requestRows;
        final boolean servletPathRows;

        Table(Selector[] rows) {
            this.rows = rows;
            boolean r = false;
            boolean sp = false;
            for (Selector s : rows) {
                r |= !s.servletPath;
                sp |= s.servletPath;
            }
            this.requestRows = r;
            this.servletPathRows = sp;
        }
    }

    private static volatile Table table = new Table(new Selector[0]);

    /** Replaces the table (at start, and on a policy swap). */
    public static void configure(Selector[] selectors) {
        table = new Table(selectors.clone());
    }

    /**
     * The task class of a request, or null: request rows match {@code method}, {@code path},
     * {@code localPort} and headers; servlet-path rows match {@code servletPath} (null where it is
     * not known, so they never match there).
     */
    public static String classify(String method, String path, int localPort, String servletPath, Object request,
            HeaderReader headers) throws Throwable {
        return classify(table, method, path, localPort, servletPath, request, headers);
    }

    private static String classify(Table t, String method, String path, int localPort, String servletPath,
            Object request, HeaderReader headers) throws Throwable {
        for (Selector s : t.rows) {
            if (s.servletPath ? servletPath != null && s.pathMatches(servletPath)
                    : s.requestMatches(method, path, localPort, request, headers)) {
                return s.taskClass;
            }
        }
        return null;
    }

    // ---- the servlet integration: Servlet.service(ServletRequest, ServletResponse) ----

    private static final int SERVLET_PATH = 0;
    private static final int PATH_INFO = 1;
    private static final int REQUEST_URI = 2;
    private static final int METHOD = 3;
    private static final int LOCAL_PORT = 4;
    private static final int HEADER = 5;

    /**
     * The accessors of the request's public {@code HttpServletRequest} interface (jakarta or
     * javax), per request class, so that one helper serves both servlet APIs without linking either.
     */
    private static final ClassValue<MethodHandle[]> SERVLET = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            Class<?> api = find(type);
            if (api == null) {
                return null;
            }
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                MethodType string = MethodType.methodType(String.class);
                return new MethodHandle[] {
                    lookup.findVirtual(api, "getServletPath", string),
                    lookup.findVirtual(api, "getPathInfo", string),
                    lookup.findVirtual(api, "getRequestURI", string),
                    lookup.findVirtual(api, "getMethod", string),
                    lookup.findVirtual(api, "getLocalPort", MethodType.methodType(int.class)),
                    lookup.findVirtual(api, "getHeader", MethodType.methodType(String.class, String.class))
                };
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        private Class<?> find(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                for (Class<?> i : c.getInterfaces()) {
                    Class<?> hit = findInterface(i);
                    if (hit != null) {
                        return hit;
                    }
                }
            }
            return null;
        }

        private Class<?> findInterface(Class<?> i) {
            String n = i.getName();
            if (n.equals("jakarta.servlet.http.HttpServletRequest") || n.equals("javax.servlet.http.HttpServletRequest")) {
                return i;
            }
            for (Class<?> s : i.getInterfaces()) {
                Class<?> hit = findInterface(s);
                if (hit != null) {
                    return hit;
                }
            }
            return null;
        }
    };

    /** {@code HttpServletRequest.getHeader(name)}. */
    private static final class ServletHeaders implements HeaderReader {
        @Override
        public String header(Object request, String name) throws Throwable {
            return (String) SERVLET.get(request.getClass())[HEADER].invoke(request, name);
        }
    }

    private static final HeaderReader SERVLET_HEADERS = new ServletHeaders();

    /** Enters the request's task class, if any; the advice passes the result to {@link #exit}. */
    public static boolean enterServlet(Object request) {
        try {
            if (request == null) {
                return false;
            }
            MethodHandle[] h = SERVLET.get(request.getClass());
            if (h == null) {
                return false;
            }
            Table t = table;
            String taskClass = t.requestRows
                    ? classify(t, (String) h[METHOD].invoke(request), (String) h[REQUEST_URI].invoke(request),
                            (int) h[LOCAL_PORT].invoke(request), t.servletPathRows ? servletPath(h, request) : null,
                            request, SERVLET_HEADERS)
                    : classify(t, null, null, 0, servletPath(h, request), request, null);
            if (taskClass == null) {
                return false;
            }
            QoS.enter(taskClass);
            return true;
        } catch (Throwable t) {
            return false;
        }
    }

    public static void exit(boolean entered) {
        if (entered) {
            QoS.exit();
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
