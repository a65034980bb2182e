package io.qosweaver.agent.bootstrap;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.trace.app.AppTrace;
import java.util.regex.Pattern;

/**
 * The table behind the task classes that select requests ({@code request:} and
 * {@code servletPath:} in the policy file). The integrations' helpers ({@link Jetty12Requests},
 * {@link JettyChannelRequests}, {@link TomcatRequests}, {@link UndertowRequests} through
 * {@link RequestAccess}, and {@link ServletRequests}) read a request and call {@link #enter}; they
 * and it sit on the bootstrap class path next to the scheduler, so advice in any class loader
 * reaches one copy, and depend on nothing but the JDK, {@link QoS} and the tracer's {@link AppTrace} (a
 * classified request is the timeline's application level; one volatile read when no trace runs).
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

        /** Whether this row selects by what the request is (not by servlet path). */
        public boolean selectsByRequest() {
            return !servletPath;
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
        for (Selector s : table.rows) {
            if (s.servletPath ? servletPath != null && s.pathMatches(servletPath)
                    : s.requestMatches(method, path, localPort, request, headers)) {
                return s.taskClass;
            }
        }
        return null;
    }

    /**
     * Enters the task class of a request, if any (what every integration's advice calls on entry);
     * the advice passes the result to {@link #exit}. {@code servletPath} is null where it is not
     * known (servlet-path rows never match there).
     */
    public static boolean enter(String method, String path, int localPort, String servletPath, Object request,
            HeaderReader headers) throws Throwable {
        String taskClass = classify(method, path, localPort, servletPath, request, headers);
        if (taskClass == null) {
            return false;
        }
        // before enter: the request's slice includes an admission wait. An integration that only
        // needed the servlet path for its rows passed no path: the servlet path stands in.
        AppTrace.requestBegin(taskClass, method, path != null ? path : servletPath);
        QoS.enter(taskClass);
        return true;
    }

    /** Whether some row selects by request, and some by servlet path: integrations read only what is needed. */
    static boolean requestRows() {
        return table.requestRows;
    }

    static boolean servletPathRows() {
        return table.servletPathRows;
    }

    public static void exit(boolean entered) {
        if (entered) {
            QoS.exit();
            AppTrace.requestEnd();
        }
    }
}
