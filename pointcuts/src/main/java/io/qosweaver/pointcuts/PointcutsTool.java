package io.qosweaver.pointcuts;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The entry point for {@code qosweaver pointcuts PROFILE... --interval 10ms --max-occurrence 1
 * --out FILE}: reads and merges the profiles, generates, writes the {@code controlPoints:} section
 * and prints the report. Profiles of any size: they are read into a {@link SlotProfile} (a
 * version 1 file streamed, never held in memory). Errors are {@link IOException}s (unreadable or malformed profile, with
 * file and line or offset) and {@link IllegalArgumentException}s (bad parameters), each with a
 * message meant for the user as it is.
 */
public final class PointcutsTool {
    private PointcutsTool() {}

    /**
     * Generates with join points in synchronized code excluded when their classes are found on
     * {@code classPath} (directories and jars of the profiled application); with an empty class
     * path nothing can be checked and the report says so for every caller's class.
     *
     * @param out where the {@code controlPoints:} YAML goes; null to print it on {@code report}
     * @param report where the plain-text report goes
     */
    public static GenerationReport run(List<Path> profiles, Duration interval, int maxOccurrence, List<Path> classPath,
            Path out, PrintStream report) throws IOException {
        SynchronizedRegions regions = ClassFileSynchronizedRegions.fromClassPath(classPath);
        return run(profiles, new PointcutGenerator.Options(interval, maxOccurrence, regions), out, report);
    }

    /** Without checking synchronized code (the paper's behaviour). */
    public static GenerationReport run(List<Path> profiles, Duration interval, int maxOccurrence, Path out,
            PrintStream report) throws IOException {
        return run(profiles, PointcutGenerator.Options.of(interval, maxOccurrence), out, report);
    }

    public static GenerationReport run(List<Path> profiles, PointcutGenerator.Options options, Path out,
            PrintStream report) throws IOException {
        GenerationReport r = generate(profiles, options, report);
        String yaml = r.controlPointsYaml();
        if (out == null) {
            report.print(yaml);
        } else {
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(out, yaml, StandardCharsets.UTF_8);
            report.println("wrote " + r.pointcuts().size() + " control points to " + out);
        }
        return r;
    }

    /**
     * Reads and merges the profiles, generates, and prints the report (not the YAML): what
     * {@link #run} does before it writes. The profiles' own record of the calls made with a
     * monitor held is always used, with {@code options}' regions (a class path) added.
     */
    public static GenerationReport generate(List<Path> profiles, PointcutGenerator.Options options, PrintStream report)
            throws IOException {
        if (profiles.isEmpty()) {
            throw new IllegalArgumentException("no profile given: name at least one profile file");
        }
        for (Path p : profiles) {
            if (!Files.isRegularFile(p)) {
                throw new IOException("profile not found: " + p);
            }
        }
        SlotProfile.Builder builder = SlotProfile.builder(options.slotNanos());
        long t0 = System.nanoTime();
        for (Path p : profiles) {
            builder.read(p);
        }
        for (String w : builder.warnings()) {
            report.println("warning: " + w);
        }
        SlotProfile profile = builder.build();
        if (profile.joinPoints() == 0) {
            throw new IOException(profile.joinPointsOutsideRequests() > 0 ? "the profiles' " + profile.joinPointsOutsideRequests()
                    + " join points all lie outside the request spans they record (did the requests run on other"
                    + " threads than the server's?): " + profiles : "the profiles hold no join points: " + profiles);
        }
        report.printf(java.util.Locale.ROOT, "read %d join points in %d slots of %s (%d entries) in %.1f s%n",
                profile.joinPoints(), profile.slots(), Durations.text(profile.slotNanos()), profile.entries(),
                (System.nanoTime() - t0) / 1e9);
        if (profile.recordedRegions() != null) {
            // what the profiler found when it wove its probe, and what a class path adds
            options = options.withSynchronizedRegions(
                    SynchronizedRegions.either(profile.recordedRegions(), options.synchronizedRegions()));
        }
        GenerationReport r = new PointcutGenerator(options).generate(profile);
        report.print(r.toText());
        return r;
    }
}
