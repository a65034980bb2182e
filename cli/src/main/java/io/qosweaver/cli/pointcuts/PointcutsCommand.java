package io.qosweaver.cli.pointcuts;

import io.qosweaver.model.policy.PolicyFileException;
import io.qosweaver.model.policy.PolicyText;
import io.qosweaver.pointcuts.ClassFileSynchronizedRegions;
import io.qosweaver.pointcuts.GenerationReport;
import io.qosweaver.pointcuts.PointcutGenerator;
import io.qosweaver.pointcuts.PointcutsTool;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code qosweaver pointcuts PROFILE... --interval 10ms --max-occurrence 1 --out FILE}: the
 * profile-based pointcut generator (QoSWeaver paper, section 3.3, Fig. 3). Writes the
 * {@code controlPoints:} section of a policy file (or, with {@code --section progressPoints}, the
 * progress points of the deadlock-aware policy, as the paper generated its Fig. 12 pointcut) and
 * prints the report (Table 3's columns).
 */
@Command(name = "pointcuts", mixinStandardHelpOptions = true,
        description = "Generate control points from profiles (binary from `qosweaver profile`, or plain text).")
public final class PointcutsCommand implements Callable<Integer> {

    @Parameters(paramLabel = "PROFILE", arity = "1..*", description = "profiles to merge")
    List<Path> profiles = new ArrayList<>();

    @Option(names = "--interval", defaultValue = "10ms", converter = DurationConverter.class, paramLabel = "T",
            description = "target interval between control points: 10ms, 500us, 1s, or nanoseconds (default ${DEFAULT-VALUE})")
    Duration interval;

    @Option(names = "--max-occurrence", defaultValue = "1", paramLabel = "M",
            description = "most join points one pointcut may select in the profile (default ${DEFAULT-VALUE})")
    int maxOccurrence;

    @Option(names = "--profile-slowdown", defaultValue = "1", paramLabel = "X",
            description = "how many times longer the work took profiled than unprofiled (time one request both ways);"
                    + " the target interval is then real time (default ${DEFAULT-VALUE}: profile time is real time)")
    double profileSlowdown;

    @Option(names = "--cover-all",
            description = "after Fig. 3, cover every slot that has a join point but no control point, choosing by join"
                    + " points per slot covered with m raised only for those slots (the longest gap then stays near"
                    + " 2 x the interval)")
    boolean coverAll;

    @Option(names = "--class-path", split = ":", paramLabel = "PATH",
            description = "the profiled application's jars/dirs, for calls inside synchronized code that the profile"
                    + " does not record itself (a text profile, an older binary one); the agent's profiles do, and"
                    + " such calls are always excluded (the JDK's own classes are searched after these)")
    List<Path> classPath = new ArrayList<>();

    @Option(names = "--out", paramLabel = "FILE", description = "where the controlPoints YAML goes (default: stdout)")
    Path out;

    @Option(names = "--into", paramLabel = "POLICY",
            description = "replace the controlPoints section of this policy file, keeping its task classes, policy and"
                    + " comments; the result is checked as the agent reads it before it is written")
    Path into;

    @Option(names = "--section", defaultValue = "controlPoints", paramLabel = "SECTION",
            description = "the policy file's section the pointcuts are for: controlPoints, or progressPoints (where"
                    + " the deadlock-aware policy counts a task's progress; profile that task) (default ${DEFAULT-VALUE})")
    String section;

    @Option(names = "--json", description = "print the report as JSON on stdout")
    boolean json;

    @Override
    public Integer call() {
        if (maxOccurrence < 1) {
            System.err.println("qosweaver pointcuts: --max-occurrence must be at least 1, not " + maxOccurrence);
            return 2;
        }
        if (!section.equals("controlPoints") && !section.equals("progressPoints")) {
            System.err.println("qosweaver pointcuts: --section must be controlPoints or progressPoints, not '"
                    + section + "'");
            return 2;
        }
        String what = section.equals("controlPoints") ? "control points" : "progress points";
        try {
            SynchronizedRegions regions = classPath.isEmpty() ? SynchronizedRegions.NONE
                    : ClassFileSynchronizedRegions.fromClassPath(withJdk(classPath));
            if (into != null && out != null) {
                System.err.println("qosweaver pointcuts: --into and --out both name where the control points go;"
                        + " give one");
                return 2;
            }
            PointcutGenerator.Options options = new PointcutGenerator.Options(interval, maxOccurrence, regions,
                    profileSlowdown, coverAll);
            PrintStream report = json ? System.err : System.out;
            GenerationReport r;
            if (into == null && section.equals("controlPoints")) {
                r = PointcutsTool.run(profiles, options, out, report);
            } else if (into == null) {
                r = PointcutsTool.generate(profiles, options, report);
                write(r.sectionYaml(section), r.pointcuts().size() + " " + what, report);
            } else {
                if (!Files.isRegularFile(into)) {
                    System.err.println("qosweaver pointcuts: policy file not found: " + into);
                    return 2;
                }
                r = PointcutsTool.generate(profiles, options, report);
                String updated = PolicyText.replaceSection(into.toString(), Files.readString(into, StandardCharsets.UTF_8),
                        section, r.sectionYaml(section));
                Files.writeString(into, updated, StandardCharsets.UTF_8);
                report.println("wrote " + r.pointcuts().size() + " " + what + " into " + into
                        + " (its other sections kept)");
            }
            if (json) {
                System.out.println(r.toJson());
            }
            return 0;
        } catch (PolicyFileException e) {
            System.err.println("qosweaver pointcuts: the policy file was left unchanged: " + e.getMessage());
            return 1;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("qosweaver pointcuts: " + e.getMessage());
            return 1;
        }
    }

    /** The YAML to {@code --out} (its directory created), or to the report's stream. */
    private void write(String yaml, String what, PrintStream report) throws IOException {
        if (out == null) {
            report.print(yaml);
            return;
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, yaml, StandardCharsets.UTF_8);
        report.println("wrote " + what + " to " + out);
    }

    /** The class path followed by the running JDK's modules (see {@link ClassFileSynchronizedRegions#withJdkModules}). */
    public static List<Path> withJdk(List<Path> classPath) {
        return ClassFileSynchronizedRegions.withJdkModules(classPath,
                w -> System.err.println("qosweaver pointcuts: warning: " + w));
    }

    /** {@code 10ms}, {@code 500us}, {@code 2s}, {@code 100ns}, or a plain number of nanoseconds. */
    public static final class DurationConverter implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            try {
                Duration d;
                if (s.endsWith("ms")) {
                    d = Duration.ofNanos(Math.round(Double.parseDouble(s.substring(0, s.length() - 2)) * 1e6));
                } else if (s.endsWith("us")) {
                    d = Duration.ofNanos(Math.round(Double.parseDouble(s.substring(0, s.length() - 2)) * 1e3));
                } else if (s.endsWith("ns")) {
                    d = Duration.ofNanos(Long.parseLong(s.substring(0, s.length() - 2)));
                } else if (s.endsWith("s")) {
                    d = Duration.ofNanos(Math.round(Double.parseDouble(s.substring(0, s.length() - 1)) * 1e9));
                } else {
                    d = Duration.ofNanos(Long.parseLong(s));
                }
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("the interval must be positive: " + v);
                }
                return d;
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a duration: '" + v + "' (use e.g. 10ms, 500us, 1s)");
            }
        }
    }
}
