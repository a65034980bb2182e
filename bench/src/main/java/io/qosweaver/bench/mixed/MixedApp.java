package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.AnswerCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A third-party server application as the experiment runs it: where its jar comes from (a fetch script
 * under {@code examples/third-party/NAME/}, nothing of it in this repository), how its data and
 * configuration are prepared, how it is started, and its heavy and light requests.
 */
public interface MixedApp {

    /** What {@code --app} names it by, also the folder {@code examples/third-party/NAME/}. */
    String name();

    /** One line for reports: the application, its server, how requests reach it. */
    String description();

    /** The fetch script, relative to the project root; it prints the jar's path on its last line. */
    default String fetchScript() {
        return "examples/third-party/" + name() + "/fetch.sh";
    }

    /** The hand-written and the generated policy, relative to the project root. */
    default String policy(boolean generated) {
        return "examples/third-party/" + name() + "/policies/" + (generated ? "generated" : "handwritten") + ".yaml";
    }

    /** Writes the data and configuration the server reads into {@code runDir} (its working directory). */
    void prepare(Path projectRoot, Path runDir) throws IOException;

    /** JVM flags of the application itself (heap), the same for every version. */
    List<String> jvmFlags();

    /** The arguments after {@code -jar JAR}, serving on {@code port}. */
    List<String> appArgs(int port);

    /** Path of a GET that answers 2xx once the server is ready (its data loaded). */
    String readyPath();

    /** The heavy requests' path (low importance); the peers' {@code lowPath}. */
    String heavyPath();

    /** The URI template of the heavy requests, against {@code base} ({@code {i}}: see {@link MixedDriver}). */
    String heavyTarget(URI base);

    /** The URI template of the light requests. */
    String lightTarget(URI base);

    /**
     * A request's method and body: the same bytes with every request, from a file that {@link #prepare}
     * wrote into the run directory; the driver reads it into memory once, before the load starts.
     *
     * @param method      {@code PUT} or {@code POST}
     * @param file        the body's file name, relative to the run directory
     * @param contentType its {@code Content-Type}
     */
    record RequestBody(String method, String file, String contentType) {
    }

    /** The heavy requests' method and body; null (the default): a GET. */
    default RequestBody heavyBody() {
        return null;
    }

    /** The light requests' method and body; null (the default): a GET. */
    default RequestBody lightBody() {
        return null;
    }

    /**
     * What a served heavy answer must contain, or null (the default): its status alone decides. For an
     * application that can fail after it has sent its status (a streamed answer), so that a broken answer is
     * counted as an error, not as throughput.
     */
    default AnswerCheck heavyAnswer() {
        return null;
    }

    /** How many distinct light targets {@code {i}} ranges over. */
    int lightIds();

    /**
     * Why Jetty's QoSHandler cannot be put on this app's server (a server other than Jetty 12), or null when it
     * can: the experiment then leaves the version {@code jetty-qos} out.
     */
    default String jettyQoSUnavailable() {
        return null;
    }

    /** Facts about the app for results.json: versions, dataset size, the two requests. */
    Map<String, Object> describe();

    /** Every app the experiment knows, by name. */
    Map<String, MixedApp> ALL = Map.of(FusekiApp.NAME, new FusekiApp(), TikaApp.NAME, new TikaApp());

    /** The app named {@code name}; an unknown name is an error listing the known ones. */
    static MixedApp named(String name) {
        MixedApp app = name == null ? null : ALL.get(name);
        if (app == null) {
            throw new IllegalArgumentException("unknown app '" + name + "'; known: "
                    + ALL.keySet().stream().sorted().collect(Collectors.joining(", ")));
        }
        return app;
    }

    /** The load classes' names in results. */
    String HEAVY = "heavy";
    String LIGHT = "light";

}
