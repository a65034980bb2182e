package io.qosweaver.cli.bench;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.demo.Demo;
import io.qosweaver.bench.demo.DemoResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver demo}: the river monitor under the flash crowd, original vs QoSWeaver. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Build what is missing, run the flash crowd on the unmodified river monitor without and "
                + "with QoSWeaver, print the table, write results.json and index.html.")
public final class DemoCommand implements Callable<Integer> {
    @Mixin
    FlashCrowdOptions options = new FlashCrowdOptions();
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/demo)")
    Path reportDir;

    @Option(names = "--versions", split = ",", paramLabel = "V",
            description = "which versions to run (default original,qosweaver)")
    List<String> versions = List.of(Demo.ORIGINAL, Demo.QOSWEAVER);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        try {
            Versions.resolve(versions);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver demo: " + e.getMessage());
            return 2;
        }
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/demo");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        DemoResult r = Demo.run(layout, options.params(), options.quick(), versions, dir,
                ReportOptions.commandLine(args), report.quiet ? Progress.NONE : Progress.stderr());
        if (report.json) {
            System.out.println(JsonWriter.write(r));
        } else {
            System.out.print(Table.text(r.versions()));
            System.out.println("report: " + dir.resolve("index.html") + " and results.json");
        }
        if (!r.complete()) {
            System.err.println("qosweaver demo: some versions failed: " + r.errors());
            return 1;
        }
        return 0;
    }
}
