package io.qosweaver.cli.bench;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.report.JsonWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** Options shared by the experiment commands. */
final class ReportOptions {
    @Option(names = "--json", description = "print the results JSON on stdout (progress stays on stderr)")
    boolean json;

    @Option(names = "--quiet", description = "no progress on stderr")
    boolean quiet;

    /** The command as typed, for results: {@code args} are picocli's original arguments, from the top. */
    static String commandLine(String[] args) {
        return "./qosweaver" + (args.length == 0 ? "" : " " + Arrays.stream(args).collect(Collectors.joining(" ")));
    }

    Progress progress() {
        return quiet ? Progress.NONE : Progress.stderr();
    }

    /**
     * Prints an experiment's outcome (the JSON, or its summary and where the report is) and
     * returns the exit code: 1 when some run failed, else 0.
     */
    int finish(String command, Object result, List<String> summary, Map<String, String> errors, Path dir)
            throws java.io.IOException {
        if (json) {
            System.out.println(JsonWriter.write(result));
        } else {
            System.out.println(String.join("\n", summary));
            System.out.println("report: " + dir.resolve("index.html") + ", RESULTS.md and results.json");
        }
        if (!errors.isEmpty()) {
            System.err.println("qosweaver " + command + ": some runs failed: " + errors);
            return 1;
        }
        return 0;
    }
}
