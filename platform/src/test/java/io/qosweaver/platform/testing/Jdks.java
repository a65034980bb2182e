package io.qosweaver.platform.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The JDKs a test may run a child JVM on, for the tests of JDK 21+ behaviour (virtual threads, the
 * warnings of newer JVMs, attach) from a build on JDK 17. Shared by the modules' tests through
 * this module's test jar.
 */
public final class Jdks {
    /** What a test that needs a newer JDK says when it skips. */
    public static final String NONE_21 = "SKIPPED: no JDK 21+ found (set JAVA21_HOME)";

    private Jdks() {}

    /**
     * The {@code java} launcher of the first JDK of at least {@code version} among JAVA21_HOME,
     * JAVA_HOME, the running one and those in /usr/lib/jvm (in name order), read from each JDK's
     * {@code release} file.
     */
    public static Optional<Path> atLeast(int version) {
        List<Path> homes = new ArrayList<>();
        for (String env : new String[] {"JAVA21_HOME", "JAVA_HOME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                homes.add(Path.of(v));
            }
        }
        homes.add(Path.of(System.getProperty("java.home")));
        try (Stream<Path> s = Files.list(Path.of("/usr/lib/jvm"))) {
            s.sorted().forEach(homes::add);
        } catch (IOException | RuntimeException e) {
            // none there
        }
        for (Path home : homes) {
            Optional<Integer> v = version(home);
            Path bin = home.resolve("bin").resolve("java");
            if (v.isPresent() && v.get() >= version && Files.isExecutable(bin)) {
                return Optional.of(bin);
            }
        }
        return Optional.empty();
    }

    /** The feature version of the JDK at {@code home}, from its {@code release} file. */
    public static Optional<Integer> version(Path home) {
        try {
            Matcher m = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE)
                    .matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
            return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // not a JDK
        }
    }
}
