package io.qosweaver.agent.weaving;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * One integration the agent weaves (the OpenTelemetry Java agent's {@code TypeInstrumentation}
 * shape): which types it may touch, and the transformation it applies to them, usually stateless
 * advice or an ASM visitor that inserts one call into a helper on the bootstrap class path.
 * {@link Weaving#install} installs a list of units as one resettable transformer.
 */
public interface InstrumentationUnit {

    /** For logs and metrics, e.g. {@code entry collector} or {@code control points}. */
    String name();

    /** The types this unit may transform; matching must never load a class. */
    ElementMatcher<? super TypeDescription> types();

    /** What it does to a matched type. */
    AgentBuilder.Transformer transformer();
}
