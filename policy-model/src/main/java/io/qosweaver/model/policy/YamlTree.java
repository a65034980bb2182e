package io.qosweaver.model.policy;

import java.io.Reader;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.representer.Representer;

/**
 * A policy file's YAML as a node tree (every node keeps its line and column), with SnakeYAML's
 * errors turned into {@link PolicyFileException}s that point at the file. Only the safe
 * constructor is used: a policy file can never instantiate a class.
 */
final class YamlTree {
    private YamlTree() {}

    /** The root node, or null for an empty document. */
    static Node compose(String file, Reader reader) throws PolicyFileException {
        try {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            DumperOptions dumper = new DumperOptions();
            return new Yaml(new SafeConstructor(options), new Representer(dumper), dumper, options).compose(reader);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String problem = (e.getContext() != null ? e.getContext() + ": " : "")
                    + (e.getProblem() != null ? e.getProblem() : e.getMessage());
            throw new PolicyFileException(file, m == null ? 0 : m.getLine() + 1,
                    m == null ? 0 : m.getColumn() + 1, "YAML syntax error: " + problem.replace('\n', ' '));
        } catch (YAMLException e) {
            throw new PolicyFileException(file, 0, 0, "YAML syntax error: " + e.getMessage());
        }
    }
}
