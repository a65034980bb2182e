package io.qosweaver.pointcuts;

import java.time.Duration;
import java.util.Random;

/**
 * Generation time on a synthetic profile shaped like the paper's chart request (section 5.3):
 * one thread, about 10 µs between calls, a few thousand call sites of which a few are hot
 * (Zipf-like), rare ones spread over the run. Not a unit test: run it with
 *
 * <pre>
 * ./mvnw -q -B -pl pointcuts test-compile
 * java -cp pointcuts/target/classes:pointcuts/target/test-classes io.qosweaver.pointcuts.GenerationBenchmark [joinPoints]
 * </pre>
 *
 * It prints the best of 5 runs per parameter set (the first runs warm the JIT up).
 */
public final class GenerationBenchmark {
    private GenerationBenchmark() {}

    /** {@code n} join points, {@code sites} (caller, callee) pairs, seeded. */
    static Profile synthetic(int n, int sites, long seed) {
        Random rnd = new Random(seed);
        Profile.Builder b = Profile.builder();
        int[] callers = new int[sites];
        int[] callees = new int[sites];
        for (int s = 0; s < sites; s++) {
            callers[s] = b.intern("void org.example.C" + (s % 97) + ".m" + (s % 13) + "(int, java.lang.String)");
            callees[s] = b.intern("java.lang.Object org.example.D" + (s % 101) + ".f" + s + "(long[])");
        }
        long time = 0;
        for (int i = 0; i < n; i++) {
            time += 2_000 + rnd.nextInt(16_000);
            if (rnd.nextInt(100) == 0) {
                // 1 % from a long tail of rare call sites (most occur once or twice).
                int r = rnd.nextInt(sites * 4);
                b.joinPoint(time, 1, callers[r % sites], b.intern("void org.example.Rare" + (r % 89) + ".g" + r + "()"));
                continue;
            }
            // Zipf-like: site index ~ sites^u, so low indexes are hot and high ones rarer.
            int s = (int) Math.min(sites - 1, Math.pow(sites, rnd.nextDouble()) - 1);
            b.joinPoint(time, 1, callers[s], callees[s]);
        }
        return b.build();
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Profile p = synthetic(n, 5_000, 42);
        java.nio.file.Path f = java.nio.file.Files.createTempFile("profile", ".qwp");
        for (int run = 0; run < 3; run++) {
            long w0 = System.nanoTime();
            try (BinaryProfileWriter w = BinaryProfileWriter.open(f)) {
                for (int i = 0; i < p.size(); i++) {
                    w.joinPoint(p.time(i), 1, w.signatureId(p.signature(p.callerId(i))), w.signatureId(p.signature(p.calleeId(i))));
                }
            }
            long w1 = System.nanoTime();
            Profile back = Profile.read(java.util.List.of(f));
            long w2 = System.nanoTime();
            System.out.printf("binary profile: %d bytes (%.1f per join point), write %.0f ms, read %.0f ms (%d join points)%n",
                    java.nio.file.Files.size(f), java.nio.file.Files.size(f) / (double) n, (w1 - w0) / 1e6, (w2 - w1) / 1e6, back.size());
        }
        java.nio.file.Files.delete(f);
        System.out.printf("profile: %d join points, %.1f s of execution, %d signatures%n",
                p.size(), (p.time(p.size() - 1) - p.time(0)) / 1e9, p.signatureCount());
        for (long tMicros : new long[] {10_000, 100_000, 100}) {
            for (int m : new int[] {1, 50, 100, 200}) {
                long best = Long.MAX_VALUE;
                GenerationReport r = null;
                for (int run = 0; run < 5; run++) {
                    r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(tMicros * 1000), m)).generate(p);
                    best = Math.min(best, r.generationNanos());
                }
                System.out.printf("t=%6.1f ms m=%3d: %7.1f ms  slots %6d  candidates %d  pointcuts %4d  selected %6d  uncovered %d%n",
                        tMicros / 1000.0, m, best / 1e6, r.slots(), r.candidates(), r.pointcuts().size(),
                        r.selectedJoinPoints(), r.uncoveredSlots());
            }
        }
    }
}
