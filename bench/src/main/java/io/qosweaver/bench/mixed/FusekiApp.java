package io.qosweaver.bench.mixed;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Apache Jena Fuseki ({@code org.apache.jena:jena-fuseki-server}), a SPARQL server on embedded Jetty 12
 * (ee10): every request goes through Fuseki's servlet filter ({@code FusekiFilter}, mapped at {@code /*}),
 * which dispatches to the dataset's services itself; no servlet is mapped per endpoint.
 *
 * <p>The dataset is ours, generated with a fixed seed: {@link #ITEMS} items with a type, one of
 * {@link #CATEGORIES} categories, a price, a name and a link to another item. The heavy request is an
 * aggregate over all of them (price count and mean per category, a GROUP BY over a join), the light one
 * a point lookup (one item's triples). Both are SPARQL queries that differ only in their text, so the
 * configuration ({@code examples/third-party/fuseki/config.ttl}) gives the aggregates an endpoint of their
 * own, {@code /ds/analytics}, beside the usual {@code /ds/query}.
 */
public final class FusekiApp implements MixedApp {
    public static final String NAME = "fuseki";
    static final String VERSION = "5.6.0";
    static final int ITEMS = 50_000;
    static final int CATEGORIES = 300;
    static final String EX = "http://example.org/";

    static final String HEAVY_QUERY = "PREFIX ex: <" + EX + "> SELECT ?cat (COUNT(*) AS ?n) (AVG(?price) AS ?avg) "
            + "WHERE { ?s ex:category ?cat ; ex:price ?price } GROUP BY ?cat ORDER BY DESC(?n)";
    static final String LIGHT_QUERY = "SELECT ?p ?o WHERE { <" + EX + "item/{i}> ?p ?o }";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Apache Jena Fuseki " + VERSION + " (jena-fuseki-server, Jetty 12.1 ee10, requests routed by its "
                + "servlet filter): heavy = SPARQL GROUP BY over " + ITEMS + " items on /ds/analytics, light = one "
                + "item's triples on /ds/query";
    }

    @Override
    public void prepare(Path projectRoot, Path runDir) throws IOException {
        Files.createDirectories(runDir);
        Path config = projectRoot.resolve("examples/third-party/fuseki/config.ttl");
        if (!Files.isRegularFile(config)) {
            throw new IOException("Fuseki's configuration is missing: " + config);
        }
        Files.copy(config, runDir.resolve("config.ttl"), StandardCopyOption.REPLACE_EXISTING);
        writeDataset(runDir.resolve("data.nt"), ITEMS);
    }

    /** The dataset as N-Triples: five triples per item, the same file for the same {@code items}. */
    static long writeDataset(Path file, int items) throws IOException {
        SplittableRandom random = new SplittableRandom(42);
        long triples = 0;
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < items; i++) {
                String s = "<" + EX + "item/" + i + ">";
                w.write(s + " <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <" + EX + "Item> .\n");
                w.write(s + " <" + EX + "category> <" + EX + "cat/" + (i % CATEGORIES) + "> .\n");
                w.write(s + " <" + EX + "price> \"" + random.nextInt(10_000) / 100.0
                        + "\"^^<http://www.w3.org/2001/XMLSchema#decimal> .\n");
                w.write(s + " <" + EX + "name> \"item " + i + "\" .\n");
                w.write(s + " <" + EX + "related> <" + EX + "item/" + random.nextInt(items) + "> .\n");
                triples += 5;
            }
        }
        return triples;
    }

    @Override
    public List<String> jvmFlags() {
        // one line per GC pause in the app's log, to tell a collector's pause from a scheduling delay
        return List.of("-Xmx2g", GcPauses.XLOG);
    }

    @Override
    public List<String> appArgs(int port) {
        return List.of("--port=" + port, "--config=config.ttl");
    }

    @Override
    public String readyPath() {
        return "/$/ping";
    }

    @Override
    public String heavyPath() {
        return "/ds/analytics";
    }

    @Override
    public String heavyTarget(URI base) {
        return base + heavyPath() + "?query=" + encode(HEAVY_QUERY);
    }

    @Override
    public String lightTarget(URI base) {
        // {i} stays readable for the driver: encode around it
        String[] parts = LIGHT_QUERY.split("\\{i\\}", -1);
        return base + "/ds/query?query=" + encode(parts[0]) + "{i}" + encode(parts[1]);
    }

    @Override
    public int lightIds() {
        return ITEMS;
    }

    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("artifact", "org.apache.jena:jena-fuseki-server:" + VERSION);
        m.put("server", "Jetty 12.1.1 (ee10), embedded in the jar");
        m.put("routing", "servlet filter FusekiFilter at /* dispatches to the dataset's services; no servlet per "
                + "endpoint");
        m.put("dataset", ITEMS + " items, " + ITEMS * 5 + " triples, in memory (ja:MemoryDataset), seed 42");
        m.put("heavy_request", "GET /ds/analytics?query=" + HEAVY_QUERY);
        m.put("light_request", "GET /ds/query?query=" + LIGHT_QUERY.replace("{i}", "N") + " (N spread over the items)");
        m.put("jvm_flags", jvmFlags());
        return m;
    }
}
