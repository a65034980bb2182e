package io.qosweaver.agent.unit.requestspan;

import io.qosweaver.agent.unit.jetty12.Jetty12Unit;
import io.qosweaver.agent.unit.jettychannel.JettyChannelUnit;
import io.qosweaver.agent.unit.servlet.ServletUnit;
import io.qosweaver.agent.unit.tomcat.TomcatUnit;
import io.qosweaver.agent.unit.undertow.UndertowUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.List;

/**
 * {@link RequestSpanAdvice} at the methods where the request integrations classify a request:
 * the same places, so that a span is what a {@code request} task class would run in. A servlet
 * inside Jetty or Tomcat marks a nested span; the profile keeps the outermost.
 */
public final class RequestSpanUnits {
    private RequestSpanUnits() {}

    public static List<InstrumentationUnit> create(WeavingStats.PointcutStats stats) {
        return List.of(ServletUnit.create(stats, RequestSpanAdvice.class), Jetty12Unit.create(stats, RequestSpanAdvice.class),
                JettyChannelUnit.create(stats, RequestSpanAdvice.class), TomcatUnit.create(stats, RequestSpanAdvice.class),
                UndertowUnit.create(stats, RequestSpanAdvice.class));
    }
}
