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

    /**
     * Reads the profile back, either version (all of it: a corrupt or truncated file is an error
     * here); {@code threads} counts a version 2 file's timelines, one per thread.
     */
    public static Summary summary(Path profile) throws IOException {
        BinaryProfileReader.Summary s = BinaryProfileReader.summary(profile);
        return new Summary(s.joinPoints(), s.threads(), s.signatures(), Files.size(profile), s.meta().get("limit"));
    }

    /** Join points of one pair on one thread: one at a time (version 1) or a slot's worth (version 2). */
    public interface PairCounts {
        void add(long thread, String caller, String callee, long count);
    }

    /** Every join point of the profile, either version, as counts per thread and pair. */
    public static BinaryProfileReader.Summary forEachPair(Path profile, PairCounts counts) throws IOException {
        if (BinaryProfileReader.version(profile) == 2) {
            return BinaryProfileReader.readSlots(profile, pairs(counts));
        }
        return BinaryProfileReader.read(profile, (time, thread, caller, callee) -> counts.add(thread, caller, callee, 1));
    }

    private static BinaryProfileReader.SlotTarget pairs(PairCounts counts) {
        List<String> signatures = new ArrayList<>();
        List<int[]> pairs = new ArrayList<>();
        List<Long> threads = new ArrayList<>();
        return new BinaryProfileReader.SlotTarget() {
            @Override
            public void signature(int id, String text) {
                signatures.add(text);
            }

            @Override
            public void pair(int id, int callerId, int calleeId) {
                pairs.add(new int[] {callerId, calleeId});
            }

            @Override
            public void timeline(int index, long threadId, long startNanos) {
                threads.add(threadId);
            }

            @Override
            public void slot(int timeline, long slot, int entries, int[] pairIds, int[] count, int[] first, int[] last) {
                for (int e = 0; e < entries; e++) {
                    int[] p = pairs.get(pairIds[e]);
                    counts.add(threads.get(timeline), signatures.get(p[0]), signatures.get(p[1]), count[e]);
                }
            }
        };
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
