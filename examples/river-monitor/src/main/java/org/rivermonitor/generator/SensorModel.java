package org.rivermonitor.generator;

/**
 * Simulated water level of one river gauge, in metres, as a pure function of time.
 *
 * <p>The level is a sum of: a normal level; a semi-diurnal tide (12.42 h, rivers near the sea);
 * a small daily cycle; rain waves (flood hydrographs: fast rise, slow recession) drawn at random
 * per 6 h slot; slow wandering noise (10 min knots, interpolated) and per-second sensor noise.
 * Everything is derived from the river's seed and the time, so the same seed and the same instant
 * always give the same reading: the seeded history and the live readings form one series.
 */
public final class SensorModel {

    private static final double TIDE_PERIOD_MS = 12.42 * 3_600_000;
    private static final double DAY_MS = 24 * 3_600_000;
    private static final long RAIN_SLOT_MS = 6 * 3_600_000L;
    private static final long NOISE_KNOT_MS = 10 * 60_000L;
    /** How far back a rain wave still matters (a wave has decayed after about 12 rise times). */
    private static final long RAIN_LOOKBACK_MS = 72 * 3_600_000L;
    public static final double MAX_LEVEL_M = 15.0;

    private final long seed;
    private final double normal;
    private final double tideAmp;
    private final double tidePhase;
    private final double dayAmp;
    private final double dayPhase;
    private final double rainProbability;
    private final double rainScale;

    private SensorModel(long seed) {
        this.seed = seed;
        this.normal = 1.0 + 3.0 * unit(seed, 1);
        this.tideAmp = unit(seed, 2) < 0.6 ? 0.1 + 0.7 * unit(seed, 3) : 0.02;
        this.tidePhase = 2 * Math.PI * unit(seed, 4);
        this.dayAmp = 0.05 + 0.15 * unit(seed, 5);
        this.dayPhase = 2 * Math.PI * unit(seed, 6);
        this.rainProbability = 0.2 + 0.3 * unit(seed, 7);
        this.rainScale = 0.5 + 2.0 * unit(seed, 8);
    }

    public static SensorModel forRiver(long baseSeed, int riverId) {
        return new SensorModel(mix(baseSeed * 0x9E3779B97F4A7C15L + riverId));
    }

    public double normalLevelM() {
        return normal;
    }

    /** The level in metres at the given epoch millis, rounded to millimetres. */
    public double levelAt(long epochMs) {
        double t = epochMs;
        double level = normal
                + tideAmp * Math.sin(2 * Math.PI * t / TIDE_PERIOD_MS + tidePhase)
                + dayAmp * Math.sin(2 * Math.PI * t / DAY_MS + dayPhase)
                + rain(epochMs)
                + wander(epochMs)
                + sensorNoise(epochMs);
        level = Math.max(0.0, Math.min(MAX_LEVEL_M, level));
        return Math.round(level * 1000) / 1000.0;
    }

    private double rain(long t) {
        double sum = 0;
        long first = Math.floorDiv(t - RAIN_LOOKBACK_MS, RAIN_SLOT_MS);
        long last = Math.floorDiv(t, RAIN_SLOT_MS);
        for (long slot = first; slot <= last; slot++) {
            if (unit(seed, 1000 + slot * 4) >= rainProbability) {
                continue;
            }
            long start = slot * RAIN_SLOT_MS + (long) (unit(seed, 1001 + slot * 4) * RAIN_SLOT_MS);
            double x = (t - start) / 3_600_000.0;
            if (x <= 0) {
                continue;
            }
            double rise = 1.0 + 4.0 * unit(seed, 1002 + slot * 4);
            // Exponential tail of the amplitude distribution: most waves are small, a few are floods.
            double amp = rainScale * -Math.log(1 - 0.95 * unit(seed, 1003 + slot * 4));
            double r = x / rise;
            sum += amp * r * Math.exp(1 - r);
        }
        return sum;
    }

    private double wander(long t) {
        long k = Math.floorDiv(t, NOISE_KNOT_MS);
        double f = (t - k * NOISE_KNOT_MS) / (double) NOISE_KNOT_MS;
        double a = unit(seed, 7_000_000_000L + k) - 0.5;
        double b = unit(seed, 7_000_000_001L + k) - 0.5;
        double s = f * f * (3 - 2 * f);
        return 0.08 * (a + (b - a) * s);
    }

    private double sensorNoise(long t) {
        long sec = Math.floorDiv(t, 1000);
        double n = unit(seed, 9_000_000_000L + 3 * sec) + unit(seed, 9_000_000_001L + 3 * sec)
                + unit(seed, 9_000_000_002L + 3 * sec) - 1.5;
        return 0.02 * n;
    }

    /** A uniform number in [0, 1) determined by (seed, key). */
    static double unit(long seed, long key) {
        return (mix(seed ^ mix(key)) >>> 11) * 0x1.0p-53;
    }

    /** SplitMix64 finaliser. */
    static long mix(long z) {
        z += 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
