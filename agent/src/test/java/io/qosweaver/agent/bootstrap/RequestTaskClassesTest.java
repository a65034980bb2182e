package io.qosweaver.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RequestTaskClassesTest {
    private static final String[] NONE = new String[0];

    private static RequestTaskClasses.Selector request(String name, String[] paths, String[] methods, int port) {
        return new RequestTaskClasses.Selector(name, false, paths, methods, NONE, NONE, NONE, port);
    }

    private static RequestTaskClasses.Selector servletPath(String name, String path) {
        return new RequestTaskClasses.Selector(name, true, new String[] {path}, NONE, NONE, NONE, NONE, 0);
    }

    private static String classify(String method, String path, int port, String servletPath, Map<String, String> headers)
            throws Throwable {
        return RequestTaskClasses.classify(method, path, port, servletPath, headers, (r, n) -> {
            @SuppressWarnings("unchecked")
            Map<String, String> h = (Map<String, String>) r;
            return h.get(n.toLowerCase(java.util.Locale.ROOT));
        });
    }

    @AfterEach
    void empty() {
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[0]);
    }

    @Test
    void pathsFollowServletMappingRules() throws Throwable {
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[] {
            request("exact", new String[] {"/api/lookup"}, NONE, 0),
            request("prefix", new String[] {"/api/report/*"}, NONE, 0),
            request("ext", new String[] {"*.png", "*.csv"}, NONE, 0),
        });
        assertThat(classify("GET", "/api/lookup", 80, null, Map.of())).isEqualTo("exact");
        assertThat(classify("GET", "/api/lookup/1", 80, null, Map.of())).isNull();
        assertThat(classify("GET", "/api/report", 80, null, Map.of())).as("a prefix also takes itself").isEqualTo("prefix");
        assertThat(classify("GET", "/api/report/2024/x", 80, null, Map.of())).isEqualTo("prefix");
        assertThat(classify("GET", "/api/reports", 80, null, Map.of())).as("not a path segment").isNull();
        assertThat(classify("GET", "/img/a.png", 80, null, Map.of())).isEqualTo("ext");
        assertThat(classify("GET", "/x.csv", 80, null, Map.of())).isEqualTo("ext");
        assertThat(classify("GET", "/x.pngx", 80, null, Map.of())).isNull();
        assertThat(classify("GET", null, 80, null, Map.of())).isNull();
    }

    @Test
    void everyConditionGivenMustHoldAndTheFirstMatchingRowWins() throws Throwable {
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[] {
            new RequestTaskClasses.Selector("gold", false, new String[] {"/api/*"}, new String[] {"POST", "PUT"},
                    new String[] {"X-Tenant", "X-Trace"}, new String[] {null, "on"}, new String[] {"gold|platinum", null}, 8443),
            request("posts", NONE, new String[] {"POST"}, 0),
            request("admin-port", new String[] {"/*"}, NONE, 9000),
        });
        Map<String, String> gold = Map.of("x-tenant", "gold", "x-trace", "on");
        assertThat(classify("POST", "/api/x", 8443, null, gold)).isEqualTo("gold");
        assertThat(classify("PUT", "/api/x", 8443, null, Map.of("x-tenant", "platinum", "x-trace", "on"))).isEqualTo("gold");
        assertThat(classify("POST", "/api/x", 8443, null, Map.of("x-tenant", "silver", "x-trace", "on")))
                .as("the regular expression must match the whole value").isEqualTo("posts");
        assertThat(classify("POST", "/api/x", 8443, null, Map.of("x-tenant", "goldish", "x-trace", "on"))).isEqualTo("posts");
        assertThat(classify("POST", "/api/x", 8443, null, Map.of("x-tenant", "gold"))).as("a missing header").isEqualTo("posts");
        assertThat(classify("POST", "/api/x", 80, null, gold)).as("another port").isEqualTo("posts");
        assertThat(classify("post", "/api/x", 8443, null, gold)).as("methods are case-sensitive").isNull();
        assertThat(classify("GET", "/anything", 9000, null, Map.of())).isEqualTo("admin-port");
        assertThat(classify("GET", "/anything", 9001, null, Map.of())).isNull();
    }

    @Test
    void servletPathRowsMatchOnlyWhereTheServletPathIsKnown() throws Throwable {
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[] {
            servletPath("chart", "/chart"),
            request("all", new String[] {"/*"}, NONE, 0),
        });
        assertThat(classify("GET", "/app/chart", 80, "/chart", Map.of())).isEqualTo("chart");
        assertThat(classify("GET", "/app/chart", 80, null, Map.of())).as("at a server's entry").isEqualTo("all");
        assertThat(classify("GET", "/app/levels", 80, "/levels", Map.of())).isEqualTo("all");
    }

    /** The class javadoc's claim: paths, methods, ports and exact headers are matched without allocating. */
    @Test
    void classifyingAllocatesNothingForPathsMethodsPortsAndExactHeaders() throws Throwable {
        java.lang.management.ThreadMXBean plain = java.lang.management.ManagementFactory.getThreadMXBean();
        org.junit.jupiter.api.Assumptions.assumeTrue(plain instanceof com.sun.management.ThreadMXBean,
                "this JVM has no com.sun.management.ThreadMXBean");
        com.sun.management.ThreadMXBean b = (com.sun.management.ThreadMXBean) plain;
        org.junit.jupiter.api.Assumptions.assumeTrue(b.isThreadAllocatedMemorySupported(), "allocation counting unsupported");
        b.setThreadAllocatedMemoryEnabled(true);
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[] {
            new RequestTaskClasses.Selector("gold", false, new String[] {"/api/lookup", "/api/report/*", "*.csv"},
                    new String[] {"POST"}, new String[] {"X-Tenant"}, new String[] {"gold"}, new String[] {null}, 8080),
            request("gets", new String[] {"/api/*"}, new String[] {"GET"}, 0),
        });
        Map<String, String> headers = Map.of("X-Tenant", "gold");
        RequestTaskClasses.HeaderReader reader = (r, n) -> headers.get(n);
        int calls = 1_000_000;
        String[] paths = {"/api/report/2024", "/api/x", "/other", "/a.csv"};
        String[] methods = {"POST", "GET"};
        int hits = 0;
        for (int i = 0; i < calls; i++) { // warm up (JIT)
            hits += RequestTaskClasses.classify(methods[i & 1], paths[i & 3], 8080, null, headers, reader) != null ? 1 : 0;
        }
        long id = Thread.currentThread().getId();
        long before = b.getThreadAllocatedBytes(id);
        for (int i = 0; i < calls; i++) {
            hits += RequestTaskClasses.classify(methods[i & 1], paths[i & 3], 8080, null, headers, reader) != null ? 1 : 0;
        }
        long after = b.getThreadAllocatedBytes(id);
        assertThat(hits).isPositive();
        assertThat((after - before) / (double) calls).as("bytes per classification").isLessThan(0.01);
    }

    @Test
    void aRequestMatchingNoRowIsUnmanaged() throws Throwable {
        assertThat(classify("GET", "/", 80, "/", Map.of())).as("empty table").isNull();
        RequestTaskClasses.configure(new RequestTaskClasses.Selector[] {request("x", new String[] {"/x"}, NONE, 0)});
        assertThat(ServletRequests.enter(new Object())).as("not a servlet request").isFalse();
        assertThat(ServletRequests.enter(null)).isFalse();
    }
}
