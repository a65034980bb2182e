package io.qosweaver.model.policy;

import java.io.StringReader;
import java.util.List;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * Edits of a policy file's text that keep everything else as written: comments, key order,
 * quoting. The sections are found on the YAML node tree, not by reading lines, so a nested key
 * or a comment that looks like a key is never taken for a section.
 *
 * <p>A top-level section runs from its key's line to the line before the next top-level key. The
 * comment lines directly above a key (no blank line between) belong to that key: they are
 * replaced with its section and kept with the next one.
 */
public final class PolicyText {
    private PolicyText() {}

    /**
     * {@code text} with the top-level section {@code key} replaced by {@code section} (YAML text
     * that starts with {@code key:} or with its own comment lines); appended at the end when the
     * file has no such key. The result is read as a policy file, so a section that breaks the
     * file is refused here rather than by the agent.
     *
     * @throws PolicyFileException when {@code text} is not a YAML mapping in block style, or the
     *                             result is not a valid policy file (its lines are the result's)
     */
    public static String replaceSection(String file, String text, String key, String section)
            throws PolicyFileException {
        Node root = YamlTree.compose(file, new StringReader(text));
        if (!(root instanceof MappingNode top) || top.getFlowStyle() == DumperOptions.FlowStyle.FLOW) {
            throw new PolicyFileException(file, root == null ? 1 : root.getStartMark().getLine() + 1, 0,
                    "not a policy file in block style (top-level 'key: value' lines)");
        }
        String[] lines = text.split("\n", -1);
        List<NodeTuple> tuples = top.getValue();
        int from = -1;
        int to = lines.length; // exclusive
        for (int i = 0; i < tuples.size(); i++) {
            Node k = tuples.get(i).getKeyNode();
            if (k instanceof ScalarNode s && s.getValue().equals(key)) {
                from = leadingComments(lines, k.getStartMark().getLine());
                if (i + 1 < tuples.size()) {
                    to = leadingComments(lines, tuples.get(i + 1).getKeyNode().getStartMark().getLine());
                    while (to > from && lines[to - 1].isBlank()) {
                        to--; // the blank lines between sections stay where they are
                    }
                }
                break;
            }
        }
        String body = section.endsWith("\n") ? section : section + "\n";
        StringBuilder out = new StringBuilder();
        if (from < 0) {
            out.append(text);
            if (!text.isEmpty() && !text.endsWith("\n")) {
                out.append('\n');
            }
            out.append(body);
        } else {
            for (int i = 0; i < from; i++) {
                out.append(lines[i]).append('\n');
            }
            out.append(body);
            for (int i = to; i < lines.length; i++) {
                out.append(lines[i]);
                if (i + 1 < lines.length) {
                    out.append('\n');
                }
            }
        }
        String result = out.toString();
        try {
            PolicyFile.parse(file, result);
        } catch (PolicyFileException e) {
            throw new PolicyFileException(file + " with its " + key + " replaced", e.line(), e.column(), e.problem());
        }
        return result;
    }

    /** The first line of the comment block directly above {@code line} ({@code line} if none). */
    private static int leadingComments(String[] lines, int line) {
        int first = line;
        while (first > 0 && lines[first - 1].startsWith("#")) {
            first--;
        }
        return first;
    }
}
