package io.qosweaver.agent.bootstrap;

import io.qosweaver.scheduler.QoS;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The helper behind servlet-path task classes. Advice woven into {@code Servlet.service} of any
 * web application class loader calls it, so the agent appends this class to the bootstrap class
 * path next to the scheduler (see {@code BootstrapInjector}); it must depend on nothing but the
 * JDK and {@link QoS}.
 *
 * <p>It works on {@code Object} and finds {@code getServletPath}/{@code getPathInfo} through the
 * request's public {@code HttpServletRequest} interface (jakarta or javax), cached per request
 * class, so that one helper serves both servlet APIs without linking either.
 *
 * <p>Patterns follow servlet mappings: {@code /chart} exact, {@code /api/*} prefix (also
 * {@code /api} itself), {@code *.png} extension. The first matching task class wins.
 */
public final class ServletTaskClasses {
    private ServletTaskClasses() {}

    private static final class Table {
        final String[] patterns;
        final String[] taskClasses;

        Table(String[] patterns, String[] taskClasses) {
            this.patterns = patterns;
            this.taskClasses = taskClasses;
        }
    }

    private static volatile Table table = new Table(new String[0], new String[0]);

    private static final ClassValue<MethodHandle[]> ACCESSORS = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            Class<?> api = find(type);
            if (api == null) {
                return null;
            }
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                MethodType getter = MethodType.methodType(String.class);
                return new MethodHandle[] {
                    lookup.findVirtual(api, "getServletPath", getter),
                    lookup.findVirtual(api, "getPathInfo", getter),
                    lookup.findVirtual(api, "getRequestURI", getter)
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

    /** Replaces the table (a policy swap); both arrays have the same length. */
    public static void configure(String[] patterns, String[] taskClasses) {
        table = new Table(patterns.clone(), taskClasses.clone());
    }

    /** Enters the request's task class, if any; the advice passes the result to {@link #exit}. */
    public static boolean enter(Object request) {
        try {
            String taskClass = classify(pathOf(request));
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
    static String pathOf(Object request) throws Throwable {
        if (request == null) {
            return null;
        }
        MethodHandle[] h = ACCESSORS.get(request.getClass());
        if (h == null) {
            return null;
        }
        String servletPath = (String) h[0].invoke(request);
        String pathInfo = (String) h[1].invoke(request);
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return path.isEmpty() ? (String) h[2].invoke(request) : path;
    }

    public static String classify(String path) {
        if (path == null) {
            return null;
        }
        Table t = table;
        for (int i = 0; i < t.patterns.length; i++) {
            if (matches(t.patterns[i], path)) {
                return t.taskClasses[i];
            }
        }
        return null;
    }

    static boolean matches(String pattern, String path) {
        if (pattern.startsWith("*.")) {
            return path.endsWith(pattern.substring(1));
        }
        if (pattern.endsWith("/*")) {
            String prefix = pattern.substring(0, pattern.length() - 2);
            return path.equals(prefix) || path.startsWith(prefix + "/") || prefix.isEmpty();
        }
        return path.equals(pattern);
    }
}
