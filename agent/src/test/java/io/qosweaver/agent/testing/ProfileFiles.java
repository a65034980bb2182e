package io.qosweaver.agent.testing;

import io.qosweaver.agent.profiling.ProfilingArgs;
import io.qosweaver.pointcuts.BinaryProfileReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: what a profile file holds, read back, and a java command run under the agent in
 * profiling mode (what {@code qosweaver profile} does, without the CLI).
 */
public final class ProfileFiles {
    private ProfileFiles() {}

    /** What the profile holds. */
    public record Summary(long joinPoints, int threads, int signatures, long bytes, String limit) {}

    /** Reads the profile back (all of it: a corrupt or truncated file is an error here). */
    public static Summary summary(Path profile) throws IOException {
        BinaryProfileReader.Summary s = BinaryProfileReader.read(profile, (time, thread, caller, callee) -> { });
        return new Summary(s.joinPoints(), s.threads(), s.signatures(), Files.size(profile), s.meta().get("limit"));
    }

    /**
     * Runs {@code java [jvmOptions] -javaagent:AGENT=profile=OUT,include=P1+P2[,agentOptions] MAIN...}
     * with inherited standard streams and returns its exit code.
     */
    public static int run(Path agentJar, List<String> include, Path out, List<String> agentOptions,
            List<String> javaCommand) throws IOException, InterruptedException {
        StringBuilder args = new StringBuilder(ProfilingArgs.format(out.toAbsolutePath(), include));
        for (String o : agentOptions) {
            args.append(',').append(o);
        }
        ProfilingArgs.parse(args.toString());
        List<String> cmd = new ArrayList<>();
        cmd.add(javaCommand.get(0));
        cmd.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + args);
        cmd.addAll(javaCommand.subList(1, javaCommand.size()));
        Files.deleteIfExists(out);
        return new ProcessBuilder(cmd).inheritIO().start().waitFor();
    }
}
