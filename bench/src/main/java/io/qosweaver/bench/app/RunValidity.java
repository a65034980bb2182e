package io.qosweaver.bench.app;

import io.qosweaver.bench.load.ClassResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Whether a window's figures mean anything: a run whose requests failed measured the failure, not
 * the application (on a headless machine whose AWT cannot load its fonts every chart request fails
 * at once and a version "misses no deadline"). Above {@link #MAX_ERROR_RATIO} of failed requests in
 * any request class the window is invalid, and the cause is named: the first error the
 * application logged, else the load driver's most frequent error kind. Requests refused on
 * purpose ({@link #REFUSALS}: a limiter's 429, a QoS handler's 503) are not failures: a version that
 * refuses work says so in its own figures.
 */
public final class RunValidity {
    /** Failed requests over all requests of one class beyond which a window's figures are invalid. */
    public static final double MAX_ERROR_RATIO = 0.05;
    /** How a window's notes say it is invalid (one note, with the cause). */
    public static final String PREFIX = "INVALID: ";
    /** Error kinds that are refusals by design, not failures. */
    public static final java.util.Set<String> REFUSALS = java.util.Set.of("status 429", "status 503");
    private static final int MAX_CAUSE_CHARS = 240;

    private RunValidity() {}

    /** Null when the window is valid, else one line naming how many requests failed and why. */
    public static String problem(ScenarioResult s, Path appLog) {
        if (s == null || s.load() == null) {
            return null;
        }
        for (ClassResult c : s.load()) {
            long all = c.requests() + c.errors();
            long failed = c.errors() - c.errorKinds().entrySet().stream()
                    .filter(e -> REFUSALS.contains(e.getKey())).mapToLong(java.util.Map.Entry::getValue).sum();
            if (all > 0 && failed > MAX_ERROR_RATIO * all) {
                String cause = firstError(appLog);
                if (cause == null) {
                    cause = c.errorKinds().entrySet().stream().filter(e -> !REFUSALS.contains(e.getKey()))
                            .max(java.util.Map.Entry.comparingByValue())
                            .map(e -> e.getKey() + " (" + e.getValue() + " times)").orElse("unknown");
                } else {
                    cause = "the app's first error: " + cause;
                }
                return String.format(Locale.ROOT, "%d of %d %s requests failed (%.1f %%, more than %.0f %%); %s",
                        failed, all, c.name(), 100.0 * failed / all, 100 * MAX_ERROR_RATIO, cause);
            }
        }
        return null;
    }

    /** The window's invalidity, from its notes; null when valid. */
    public static String of(ScenarioResult s) {
        if (s == null || s.notes() == null) {
            return null;
        }
        return s.notes().stream().filter(n -> n.startsWith(PREFIX)).map(n -> n.substring(PREFIX.length()))
                .findFirst().orElse(null);
    }

    /** The first line of the log that reports an exception or an error, shortened; null when none. */
    static String firstError(Path log) {
        if (log == null || !Files.isRegularFile(log)) {
            return null;
        }
        try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
            for (String line; (line = r.readLine()) != null; ) {
                String t = line.strip();
                if (t.contains("Exception") || t.contains("Error:") || t.startsWith("ERROR") || t.contains(" ERROR ")) {
                    return t.length() <= MAX_CAUSE_CHARS ? t : t.substring(0, MAX_CAUSE_CHARS) + "...";
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }
}
