package io.qosweaver.cli;

import java.util.Arrays;
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
}
