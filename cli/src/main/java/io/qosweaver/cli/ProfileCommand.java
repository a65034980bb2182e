package io.qosweaver.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.qosweaver.pointcuts.BinaryProfileReader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qosweaver profile --include PKG,... --out FILE -- java ...}: the java command with the
 * agent in profiling mode (every call made from code of the included packages is recorded), then
 * a summary of the profile read back. The paper's guideline (section 3.3): send the most common
 * request, one at a time, while profiling.
 */
@Command(name = "profile", mixinStandardHelpOptions = true,
        description = "Record the call join points of a java command into a profile for `qosweaver pointcuts`.",
        footer = {"%nExample: qosweaver profile --include org.jfree --out chart.qwp --start-paused --metrics-port 9404 -- "
                + "java -jar examples/river-monitor/target/river-monitor.jar",
                "then: curl -X POST http://127.0.0.1:9404/profile/start; one request; curl -X POST .../profile/stop"})
final class ProfileCommand implements Callable<Integer> {

    @Option(names = "--include", required = true, split = ",", paramLabel = "PKG",
            description = "packages whose code is profiled (the callers; callees may be anything, the JDK too)")
    List<String> include = new ArrayList<>();

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the binary profile to write")
    Path out;

    @Option(names = "--start-paused", description = "record nothing until started over JMX or POST /profile/start")
    boolean paused;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "loopback port for /metrics and POST /profile/start|stop (0 = any free port)")
    Integer metricsPort;

    @Option(names = "--max-bytes", paramLabel = "SIZE", description = "stop recording past this size (e.g. 256m)")
    String maxBytes;

    @Mixin
    JavaCommand java = new JavaCommand();

    @Override
    public Integer call() throws Exception {
        List<String> cmd;
        try {
            cmd = rewrite(java.command, java.agentJar(), out, include, options());
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver profile: " + e.getMessage());
            return 2;
        }
        Files.deleteIfExists(out);
        int exit = JavaCommand.run(cmd); // the child's shutdown hook closes the profile
        if (!Files.isRegularFile(out)) {
            System.err.println("qosweaver profile: no profile was written to " + out + " (the command exited with "
                    + exit + " before the agent started recording)");
            return exit == 0 ? 1 : exit;
        }
        try {
            System.err.println("qosweaver profile: " + summary(out));
            System.err.println("next: qosweaver pointcuts " + out + " --interval 10ms --max-occurrence 1 --out control-points.yaml");
        } catch (IOException e) {
            System.err.println("qosweaver profile: the profile " + out + " cannot be read: " + e.getMessage());
            return 1;
        }
        return exit;
    }

    private List<String> options() {
        List<String> o = new ArrayList<>();
        if (paused) {
            o.add("start=paused");
        }
        if (metricsPort != null) {
            o.add("metricsPort=" + metricsPort);
        }
        if (maxBytes != null) {
            o.add("maxBytes=" + maxBytes);
        }
        return o;
    }

    /** The command with {@code -javaagent:AGENT=profile=OUT,include=P1+P2[,opts]} after java. */
    static List<String> rewrite(List<String> command, Path agentJar, Path out, List<String> include, List<String> options) {
        if (include.isEmpty() || include.stream().anyMatch(String::isBlank)) {
            throw new IllegalArgumentException("name the packages to profile, e.g. --include org.jfree,com.example");
        }
        StringBuilder args = new StringBuilder("profile=").append(out.toAbsolutePath())
                .append(",include=").append(String.join("+", include));
        options.forEach(o -> args.append(',').append(o));
        return JavaCommand.withAgent(command, agentJar, args.toString(),
                "qosweaver profile --include PKG --out FILE -- java ...");
    }

    static String summary(Path profile) throws IOException {
        BinaryProfileReader.Summary s = BinaryProfileReader.read(profile, (time, thread, caller, callee) -> { });
        long bytes = Files.size(profile);
        String limit = s.meta().get("limit");
        return profile + ": " + s.joinPoints() + " join points, " + s.threads() + " threads, " + s.signatures()
                + " signatures, " + bytes + " bytes"
                + (limit == null ? "" : "; PARTIAL, a limit stopped the recording: " + limit);
    }
}
