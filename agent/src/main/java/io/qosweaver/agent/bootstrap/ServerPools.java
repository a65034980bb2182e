package io.qosweaver.agent.bootstrap;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The {@code threadPools} aspect: the servers' own thread pools, Jetty's {@code QueuedThreadPool}
 * and Tomcat's connector endpoints ({@code AbstractEndpoint}), sized through their public setters,
 * called by reflection (nothing here links against a server). A pool is known once woven code
 * reports it: Jetty's at the end of {@code doStart} and of {@code execute}/{@code tryExecute},
 * Tomcat's at the end of {@code createExecutor} and of {@code processSocket}; the start reports
 * pools built after the weaving, once the application has configured them, and the busy paths
 * report those already running when the agent was attached. Each pool's values are recorded when
 * first changed and set back when the section leaves the policy. The same advice is woven only to
 * see the pools, with no settings, for the agent's pool watch ({@link #sizes}). On the bootstrap
 * class path; instances are held weakly.
 */
public final class ServerPools {
    public static final int JETTY = 0;
    public static final int TOMCAT = 1;
    private static final String[] NAMES = {"jetty", "tomcat"};
    // getters and setters of min, max, idle time-out (ms), per kind
    private static final String[][] GET = {
        {"getMinThreads", "getMaxThreads", "getIdleTimeout"},
        {"getMinSpareThreads", "getMaxThreads", "getThreadsMaxIdleTime"}};
    // the threads busy now (Jetty: not idle; Tomcat: running a task), per kind
    private static final String[] BUSY = {"getBusyThreads", "getCurrentThreadsBusy"};
    private static final String[][] SET = {
        {"setMinThreads", "setMaxThreads", "setIdleTimeout"},
        {"setMinSpareThreads", "setMaxThreads", "setThreadsMaxIdleTime"}};

    /** What the policy in force asks of one kind of pool: {@code min} -1 and {@code idleMillis} 0 leave them. */
    public record Settings(int min, int max, int idleMillis) {}

    private static final class Pool {
        final WeakReference<Object> ref;
        final int kind;
        final String name;
        /** The generation whose settings this pool has, or -1. */
        volatile int applied = -1;
        /** min, max, idle time-out before the first change; null while unchanged. */
        int[] original;
        String note = "";

        Pool(Object pool, int kind) {
            this.ref = new WeakReference<>(pool);
            this.kind = kind;
            this.name = pool.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(pool));
        }
    }

    private static final Object LOCK = new Object();
    private static volatile Pool[] pools = new Pool[0];
    private static volatile int generation;
    private static final Settings[] settings = new Settings[2];

    private ServerPools() {}

    /** From woven Jetty code: {@code pool} is a {@code QueuedThreadPool}. */
    public static void jetty(Object pool) {
        seen(pool, JETTY);
    }

    /** From woven Tomcat code: {@code endpoint} is an {@code AbstractEndpoint}. */
    public static void tomcat(Object endpoint) {
        seen(endpoint, TOMCAT);
    }

    /** The busy paths' cost once a pool is known and has its settings: a scan of a few weak references. */
    private static void seen(Object pool, int kind) {
        int g = generation;
        for (Pool p : pools) {
            if (p.ref.get() == pool) {
                if (p.applied == g) {
                    return;
                }
                break;
            }
        }
        synchronized (LOCK) {
            Pool p = find(pool);
            if (p == null) {
                p = new Pool(pool, kind);
                Pool[] now = prune();
                Pool[] more = Arrays.copyOf(now, now.length + 1);
                more[now.length] = p;
                pools = more;
            }
            if (p.applied != generation) {
                p.applied = generation; // first: a setter that runs the pool's busy path must not come back here
                apply(p, pool);
            }
        }
    }

    /**
     * The settings of the policy in force ({@code null}: leave that kind of pool, or set it back
     * as it was): applied at once to every pool known, and to those found later.
     */
    public static void configure(Settings jetty, Settings tomcat) {
        synchronized (LOCK) {
            settings[JETTY] = jetty;
            settings[TOMCAT] = tomcat;
            generation++;
            for (Pool p : prune()) {
                Object pool = p.ref.get();
                if (pool != null) {
                    p.applied = generation;
                    apply(p, pool);
                }
            }
        }
    }

    private static Pool find(Object pool) {
        for (Pool p : pools) {
            if (p.ref.get() == pool) {
                return p;
            }
        }
        return null;
    }

    private static Pool[] prune() {
        Pool[] live = Arrays.stream(pools).filter(p -> p.ref.get() != null).toArray(Pool[]::new);
        pools = live;
        return live;
    }

    private static void apply(Pool p, Object pool) {
        Settings s = settings[p.kind];
        try {
            int[] now = read(p.kind, pool);
            if (p.kind == TOMCAT && now[1] < 0) {
                p.note = "an executor of its own (a shared <Executor>): not changed";
                return;
            }
            if (s == null) {
                if (p.original != null) {
                    set(p.kind, pool, now, p.original[0], p.original[1], p.original[2]);
                    p.original = null;
                }
                p.note = "";
                return;
            }
            if (p.original == null) {
                p.original = now;
            }
            int min = s.min() >= 0 ? s.min() : Math.min(now[0], s.max());
            set(p.kind, pool, now, min, s.max(), s.idleMillis() > 0 ? s.idleMillis() : now[2]);
            p.note = "";
        } catch (ReflectiveOperationException | RuntimeException e) {
            Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
            p.note = "not changed: " + cause;
        }
    }

    private static int[] read(int kind, Object pool) throws ReflectiveOperationException {
        int[] v = new int[3];
        for (int i = 0; i < 3; i++) {
            v[i] = (Integer) method(pool, GET[kind][i]).invoke(pool);
        }
        return v;
    }

    private static int busy(int kind, Object pool) {
        try {
            return (Integer) method(pool, BUSY[kind]).invoke(pool);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1;
        }
    }

    /** Min before max when the new min fits under the old max, else max first: no setter ever sees min above max. */
    private static void set(int kind, Object pool, int[] now, int min, int max, int idle)
            throws ReflectiveOperationException {
        Method setMin = method(pool, SET[kind][0], int.class);
        Method setMax = method(pool, SET[kind][1], int.class);
        if (min <= now[1]) {
            setMin.invoke(pool, min);
            setMax.invoke(pool, max);
        } else {
            setMax.invoke(pool, max);
            setMin.invoke(pool, min);
        }
        if (idle != now[2]) {
            try {
                method(pool, SET[kind][2], int.class).invoke(pool, idle);
            } catch (java.lang.reflect.InvocationTargetException e) {
                // Jetty 12 sets the pool's own idle time-out, then refuses to change its reserved
                // threads' while running: the pool's is what this aspect sets, so that is success
                if (!(e.getCause() instanceof IllegalStateException)
                        || (Integer) method(pool, GET[kind][2]).invoke(pool) != idle) {
                    throw e;
                }
            }
        }
    }

    private static Method method(Object pool, String name, Class<?>... params) throws NoSuchMethodException {
        return pool.getClass().getMethod(name, params);
    }

    /** Pools of {@code kind} known and alive. */
    public static int found(int kind) {
        int n = 0;
        for (Pool p : pools) {
            n += p.kind == kind && p.ref.get() != null ? 1 : 0;
        }
        return n;
    }

    /**
     * A pool known: its server ({@code jetty}, {@code tomcat}), name, maximum of threads now and
     * threads busy now ({@code -1} when the pool does not say).
     */
    public record Size(String server, String pool, int max, int busy) {}

    /** Every pool known and readable, with its maximum now. */
    public static java.util.List<Size> sizes() {
        java.util.List<Size> all = new java.util.ArrayList<>();
        synchronized (LOCK) {
            for (Pool p : prune()) {
                Object pool = p.ref.get();
                if (pool == null) {
                    continue;
                }
                try {
                    int max = read(p.kind, pool)[1];
                    if (max > 0) { // Tomcat's endpoint with a shared executor says -1
                        all.add(new Size(NAMES[p.kind], p.name, max, busy(p.kind, pool)));
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // unreadable: describe() says so
                }
            }
        }
        return all;
    }

    /** One line per pool known: its values now and, when changed, before. */
    public static String describe() {
        StringBuilder b = new StringBuilder();
        synchronized (LOCK) {
            for (Pool p : prune()) {
                Object pool = p.ref.get();
                if (pool == null) {
                    continue;
                }
                b.append("threadPool ").append(NAMES[p.kind]).append(' ').append(p.name).append(": ");
                try {
                    b.append(values(read(p.kind, pool)));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    b.append("unreadable (").append(e).append(')');
                }
                if (p.original != null) {
                    b.append(" (was ").append(values(p.original)).append(')');
                }
                if (!p.note.isEmpty()) {
                    b.append("; ").append(p.note);
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    /**
     * The pools known, for {@code ctl status --json}: each its {@code server}, {@code pool},
     * {@code min}, {@code max}, {@code idleTimeoutMs} now, {@code was} (the same three before the
     * first change; absent while unchanged) and {@code note} (absent when there is nothing to say).
     */
    public static java.util.List<java.util.Map<String, Object>> states() {
        java.util.List<java.util.Map<String, Object>> all = new java.util.ArrayList<>();
        synchronized (LOCK) {
            for (Pool p : prune()) {
                Object pool = p.ref.get();
                if (pool == null) {
                    continue;
                }
                java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
                m.put("server", NAMES[p.kind]);
                m.put("pool", p.name);
                try {
                    m.putAll(valueMap(read(p.kind, pool)));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    m.put("unreadable", e.toString());
                }
                if (p.original != null) {
                    m.put("was", valueMap(p.original));
                }
                if (!p.note.isEmpty()) {
                    m.put("note", p.note);
                }
                all.add(m);
            }
        }
        return all;
    }

    private static java.util.Map<String, Object> valueMap(int[] v) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("min", v[0]);
        m.put("max", v[1]);
        m.put("idleTimeoutMs", v[2]);
        return m;
    }

    private static String values(int[] v) {
        return "min " + v[0] + ", max " + v[1] + ", idleTimeout " + v[2] + " ms";
    }
}
