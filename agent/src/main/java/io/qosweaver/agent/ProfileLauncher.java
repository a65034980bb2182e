package io.qosweaver.agent;

import io.qosweaver.pointcuts.BinaryProfileReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code qosweaver profile --include PKG,... --out FILE -- <java command>}: runs the command with
 * the agent in profiling mode, with inherited standard streams, and prints a summary of the
 * profile read back with the pointcuts module. The CLI wires its options to {@link #run}.
 */
public final class ProfileLauncher {
    private ProfileLauncher() {}

    /** What the profile holds, read back from the file. */
    public record Summary(long joinPoints, int threads, int signatures, long bytes, String limit) {
        public String toText(Path file) {
            return "profile " + file + ": " + joinPoints + " join points, " + threads + " threads, " + signatures
                    + " signatures, " + bytes + " bytes" + (joinPoints > 0 ? String.format(", %.1f bytes per join point",
                            (double) bytes / joinPoints) : "")
                    + (limit == null ? ", complete" : "; PARTIAL, a limit stopped the recording: " + limit);
        }
    }

    /**
     * Inserts {@code -javaagent:AGENT=profile=OUT,include=P1+P2} after the java executable, runs
     * the command and waits for it, then prints the summary on stdout.
     *
     * @return the command's exit code
     */
    public static int run(Path agentJar, List<String> include, Path out, List<String> javaCommand)
            throws IOException, InterruptedException {
        return run(agentJar, include, out, List.of(), javaCommand, System.out);
    }

    /**
     * @param agentOptions more agent arguments, each {@code key=value} (e.g. {@code maxBytes=256m},
     *     {@code start=paused}, {@code metricsPort=0})
     */
    public static int run(Path agentJar, List<String> include, Path out, List<String> agentOptions,
            List<String> javaCommand, PrintStream report) throws IOException, InterruptedException {
        List<String> cmd = command(agentJar, include, out, agentOptions, javaCommand);
        Files.deleteIfExists(out);
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        int exit;
        try {
            exit = p.waitFor();
        } catch (InterruptedException e) {
            p.destroy(); // the JVM's shutdown hook still closes the profile
            p.waitFor();
            throw e;
        }
        if (!Files.isRegularFile(out)) {
            report.println("[qosweaver] no profile was written to " + out + " (the command exited with " + exit
                    + " before the agent started, or the agent could not write there)");
            return exit;
        }
        try {
            report.println("[qosweaver] " + summary(out).toText(out));
            report.println("[qosweaver] next: qosweaver pointcuts " + out + " --interval 10ms --max-occurrence 1"
                    + " --out control-points.yaml");
        } catch (IOException e) {
            report.println("[qosweaver] the profile " + out + " cannot be read: " + e.getMessage());
        }
        return exit;
    }

    /** The command with the agent argument in place (testable without running anything). */
    public static List<String> command(Path agentJar, List<String> include, Path out, List<String> agentOptions,
            List<String> javaCommand) {
        if (javaCommand.isEmpty()) {
            throw new IllegalArgumentException("no command to profile: give the java command after --");
        }
        if (include.isEmpty()) {
            throw new IllegalArgumentException("name at least one package to profile (--include org.example)");
        }
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("agent jar not found: " + agentJar);
        }
        String exe = Path.of(javaCommand.get(0)).getFileName().toString();
        if (!exe.equals("java") && !exe.equals("java.exe")) {
            throw new IllegalArgumentException("the command must start with the java executable, not '"
                    + javaCommand.get(0) + "'");
        }
        StringBuilder args = new StringBuilder(ProfileArgs.format(out.toAbsolutePath(), include));
        for (String o : agentOptions) {
            args.append(',').append(o);
        }
        ProfileArgs.parse(args.toString()); // bad packages, paths or options fail here, not in the child
        List<String> cmd = new ArrayList<>(javaCommand.size() + 1);
        cmd.add(javaCommand.get(0));
        cmd.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + args);
        cmd.addAll(javaCommand.subList(1, javaCommand.size()));
        return cmd;
    }

    /** Reads the profile back (all of it: a corrupt or truncated file is an error here). */
    public static Summary summary(Path profile) throws IOException {
        BinaryProfileReader.Summary s = BinaryProfileReader.read(profile, (time, thread, caller, callee) -> { });
        return new Summary(s.joinPoints(), s.threads(), s.signatures(), Files.size(profile), s.meta().get("limit"));
    }
}
