package io.qosweaver.pointcuts;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes a synthetic profile of any size through the profile writers the agent uses, shaped like
 * a heavy request of a real application: each thread runs phases, a phase is a loop whose body
 * calls the same handful of pairs (drawn from a Zipf-like pool) over and over, between phases a
 * few calls happen once, and about one join point in a thousand is a rarely seen pair of a large
 * tail, so that every slot has hundreds of distinct pairs. Join points are 3 to 15 ns apart, the
 * density of the JDK's rendering loops in the river monitor.
 *
 * <pre>
 * java -cp pointcuts/target/classes:pointcuts/target/test-classes:policy-model/target/classes \
 *     io.qosweaver.pointcuts.SyntheticProfile --join-points 1000000000 --out /tmp/big.qwp [--version 1|2] [--threads 4]
 * </pre>
 */
public final class SyntheticProfile {
    static final int METHODS = 3_000;
    static final int POOL = 20_000;
    static final int TAIL = 60_000;

    private SyntheticProfile() {}

    /** What was written. */
    record Written(long joinPoints, long bytes, long nanos) {}

    public static void main(String[] args) throws IOException {
        long joinPoints = 1_000_000_000L;
        int threads = 4;
        int version = 2;
        long seed = 1;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--join-points" -> joinPoints = Long.parseLong(args[++i].replace("_", ""));
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--version" -> version = Integer.parseInt(args[++i]);
                case "--seed" -> seed = Long.parseLong(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (--join-points N --threads T --version 1|2 --seed S --out FILE)");
            }
        }
        if (out == null) {
            throw new IllegalArgumentException("--out FILE is required");
        }
        Written w = write(out, joinPoints, threads, version, seed, true);
        System.out.printf(Locale.ROOT, "{\"join_points\": %d, \"threads\": %d, \"version\": %d, \"bytes\": %d,"
                + " \"write_seconds\": %.1f}%n", w.joinPoints(), threads, version, w.bytes(), w.nanos() / 1e9);
    }

    static Written write(Path out, long joinPoints, int threads, int version, long seed, boolean progress)
            throws IOException {
        long started = System.nanoTime();
        ProfileWriter.Limits limits = new ProfileWriter.Limits(1 << 20, 1 << 16, Long.MAX_VALUE);
        try (ProfileWriter w = version == 1 ? new BinaryProfileWriter(
                new java.io.BufferedOutputStream(java.nio.file.Files.newOutputStream(out), 1 << 16), limits)
                : SlotProfileWriter.open(out, limits, SlotProfileWriter.DEFAULT_SLOT_NANOS, 0)) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int[] ids = new int[METHODS];
            for (int m = 0; m < METHODS; m++) {
                ids[m] = w.signatureId("void app.p" + (m % 40) + ".C" + (m / 40) + ".m" + m + "(int)");
            }
            // pairs: (caller, callee) as method indexes; the pool for loop bodies, the tail for rare calls
            int[] poolCaller = new int[POOL];
            int[] poolCallee = new int[POOL];
            for (int p = 0; p < POOL; p++) {
                poolCaller[p] = ids[rnd.nextInt(METHODS)];
                poolCallee[p] = ids[rnd.nextInt(METHODS)];
            }
            int[] tailCaller = new int[TAIL];
            int[] tailCallee = new int[TAIL];
            for (int p = 0; p < TAIL; p++) {
                tailCaller[p] = ids[rnd.nextInt(METHODS)];
                tailCallee[p] = ids[rnd.nextInt(METHODS)];
            }
            long perThread = joinPoints / threads;
            long[] time = new long[threads];
            long[] left = new long[threads];
            for (int t = 0; t < threads; t++) {
                time[t] = 1_000_000_000L * t;
                left[t] = perThread + (t == 0 ? joinPoints % threads : 0);
            }
            int[] body = new int[32];
            long written = 0;
            long nextReport = 100_000_000L;
            // threads take turns, a phase at a time, as the agent's chunks of concurrent threads arrive
            boolean any = true;
            while (any) {
                any = false;
                for (int t = 0; t < threads; t++) {
                    if (left[t] == 0) {
                        continue;
                    }
                    any = true;
                    long phase = Math.min(left[t], 100_000 + (long) (rnd.nextDouble() * rnd.nextDouble() * 20_000_000));
                    int bodySize = 4 + rnd.nextInt(24);
                    for (int b = 0; b < bodySize; b++) {
                        // Zipf-like: small pool indexes far more often
                        body[b] = (int) (POOL * Math.pow(rnd.nextDouble(), 3));
                    }
                    long tm = time[t];
                    for (int k = 0; k < 3 && k < phase; k++) { // the calls that start a phase, once
                        int p = rnd.nextInt(TAIL);
                        tm += 3 + rnd.nextInt(13);
                        w.joinPoint(tm, t + 1, tailCaller[p], tailCallee[p]);
                    }
                    for (long k = 3; k < phase; k++) {
                        tm += 3 + rnd.nextInt(13);
                        if (rnd.nextInt(1000) == 0) {
                            int p = rnd.nextInt(TAIL);
                            w.joinPoint(tm, t + 1, tailCaller[p], tailCallee[p]);
                        } else {
                            int p = body[(int) (k % bodySize)];
                            w.joinPoint(tm, t + 1, poolCaller[p], poolCallee[p]);
                        }
                    }
                    time[t] = tm;
                    left[t] -= phase;
                    written += phase;
                    if (progress && written >= nextReport) {
                        System.err.printf(Locale.ROOT, "  %,d join points written (%.0f s)%n", written,
                                (System.nanoTime() - started) / 1e9);
                        nextReport += 100_000_000L;
                    }
                }
            }
            w.close();
            return new Written(w.joinPointCount(), java.nio.file.Files.size(out), System.nanoTime() - started);
        }
    }
}
