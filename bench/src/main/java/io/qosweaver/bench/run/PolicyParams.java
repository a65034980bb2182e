package io.qosweaver.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Policy parameters set on a version by name: {@code BASE:KEY=VALUE[:KEY=VALUE...]} runs version
 * {@code BASE} with those keys of its policy file's {@code policy:} section set (replaced, or added
 * when absent), e.g. {@code qosweaver-cover-entry:lowCap=1.5x}. Why: a parameter sweep (the cap
 * relative to the cores, a grace) is one invocation with every point beside its baseline, not one
 * policy file per point. The file is rewritten as text, so its comments and control points stay as
 * they are; the agent validates the values when it starts, and a bad one fails that version's
 * start with the agent's message naming the key. {@code bench adaptive} writes each run's target
 * into its policy file with {@link #apply} too.
 */
public final class PolicyParams {
    private static final Pattern KEY = Pattern.compile("[A-Za-z][A-Za-z0-9]*");
    private static final Pattern VALUE = Pattern.compile("[A-Za-z0-9._+-]+");
    private static final Pattern SECTION = Pattern.compile("policy:\\s*(#.*)?");

    private PolicyParams() {
    }

    /**
     * The parameters of {@code spec}, the part of a version name after its base's (without the
     * leading ':'), in the order given.
     *
     * @throws IllegalArgumentException naming the malformed pair, a key given twice or {@code name}
     */
    public static Map<String, String> parse(String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : spec.split(":", -1)) {
            int eq = pair.indexOf('=');
            String k = eq < 0 ? pair : pair.substring(0, eq);
            String v = eq < 0 ? "" : pair.substring(eq + 1);
            if (!KEY.matcher(k).matches() || !VALUE.matcher(v).matches()) {
                throw new IllegalArgumentException("policy parameter '" + pair + "' is not KEY=VALUE (a name, then a"
                        + " value of letters, digits and . _ + -), e.g. lowCap=1.5x");
            }
            if (k.equals("name")) {
                throw new IllegalArgumentException("policy parameter 'name' cannot be set: the version is its policy;"
                        + " name another version instead");
            }
            if (out.putIfAbsent(k, v) != null) {
                throw new IllegalArgumentException("policy parameter '" + k + "' is given twice");
            }
        }
        return out;
    }

    /**
     * The text of version {@code v}'s policy file {@code from} with its parameters set; a file they cannot be
     * set in is an {@link IOException} naming the version and the file.
     */
    public static String applyTo(Path from, Versions.Version v) throws IOException {
        try {
            return apply(Files.readString(from), v.policyParams());
        } catch (IllegalArgumentException e) {
            throw new IOException("version " + v.name() + ": " + v.policy() + ": " + e.getMessage(), e);
        }
    }

    /**
     * {@code yaml} with {@code params} set in its top-level {@code policy:} section (block style):
     * a key present is replaced in place (its comment dropped), an absent one is added after the
     * section's last key.
     *
     * @throws IllegalArgumentException when the file has no block-style {@code policy:} section
     */
    public static String apply(String yaml, Map<String, String> params) {
        List<String> lines = new ArrayList<>(List.of(yaml.split("\n", -1)));
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (SECTION.matcher(lines.get(i).stripTrailing()).matches()) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            throw new IllegalArgumentException("the policy file has no 'policy:' section in block style (one key per"
                    + " line) whose parameters could be set");
        }
        String indent = null;
        int last = start;
        for (int i = start + 1; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isBlank() || l.stripLeading().startsWith("#")) {
                continue;
            }
            if (!Character.isWhitespace(l.charAt(0))) {
                break; // the next top-level key
            }
            if (indent == null) {
                indent = l.substring(0, l.length() - l.stripLeading().length());
            }
            last = i;
        }
        if (indent == null) {
            indent = "  ";
        }
        for (Map.Entry<String, String> p : params.entrySet()) {
            Pattern key = Pattern.compile(Pattern.quote(indent) + Pattern.quote(p.getKey()) + ":(\\s.*)?");
            String line = indent + p.getKey() + ": " + p.getValue();
            boolean found = false;
            for (int i = start + 1; i <= last; i++) {
                Matcher m = key.matcher(lines.get(i));
                if (m.matches()) {
                    lines.set(i, line);
                    found = true;
                    break;
                }
            }
            if (!found) {
                lines.add(++last, line);
            }
        }
        return String.join("\n", lines);
    }

    /** {@code KEY=VALUE} pairs joined by ':', as written in a version name. */
    static String spec(Map<String, String> params) {
        StringBuilder b = new StringBuilder();
        params.forEach((k, v) -> b.append(b.length() == 0 ? "" : ":").append(k).append('=').append(v));
        return b.toString();
    }
}
