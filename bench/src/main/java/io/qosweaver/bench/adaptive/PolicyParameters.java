package io.qosweaver.bench.adaptive;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sets parameters in the {@code policy:} section of a policy file's text, keeping everything else
 * (task classes, control points, comments) as it is: a run's policy is the committed file with its
 * own target, written beside its results, so that what the agent read is on record.
 */
final class PolicyParameters {
    private static final Pattern PARAM = Pattern.compile("^(\\s+)([A-Za-z]+):.*$");

    private PolicyParameters() {
    }

    /** The text with each key of {@code values} set in the policy section (replaced, or added at its end). */
    static String set(String text, Map<String, String> values) {
        Map<String, String> left = new LinkedHashMap<>(values);
        StringBuilder out = new StringBuilder(text.length() + 128);
        boolean inPolicy = false;
        String indent = "  ";
        for (String line : text.split("\n", -1)) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && !line.startsWith("#")) {
                inPolicy = line.startsWith("policy:");
            }
            Matcher m = PARAM.matcher(line);
            if (inPolicy && m.matches() && left.containsKey(m.group(2))) {
                indent = m.group(1);
                out.append(indent).append(m.group(2)).append(": ").append(left.remove(m.group(2))).append('\n');
            } else {
                out.append(line).append('\n');
            }
        }
        if (!text.contains("\npolicy:") && !text.startsWith("policy:")) {
            throw new IllegalArgumentException("the policy file has no policy: section");
        }
        // the file's last section is policy: (the committed file keeps it last), so the rest goes at the end
        String s = out.toString().replaceAll("\n+$", "\n");
        StringBuilder b = new StringBuilder(s);
        for (Map.Entry<String, String> e : left.entrySet()) {
            b.append(indent).append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        return b.toString();
    }
}
