package io.qosweaver.scheduler.spi;

import java.util.Map;

/**
 * A task class as the policy file declares it: a unique name and its attributes (for example
 * {@code importance: high}, {@code fraction: 0.2}), all strings, validated by the policy's
 * {@link Policy#rank}.
 */
public record TaskClassSpec(String name, Map<String, String> attributes) {
    public TaskClassSpec {
        attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
    }

    /** The attribute, or {@code null}. */
    public String attribute(String key) {
        return attributes.get(key);
    }
}
