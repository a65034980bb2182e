package io.qosweaver.agent.startup;

import io.qosweaver.agent.log.AgentLog;
import java.lang.instrument.Instrumentation;

/**
 * The Java API ({@code qosweaver-api}) looks the scheduler up once, when its bridge class
 * initializes. An application that used the API before the agent was attached has found nothing;
 * once the scheduler is installed, every loaded copy of the API's bridge (one per class loader
 * that loaded the API) is told to look again. By name and by reflection: the agent links no API
 * class, and an application without the API costs one pass over the loaded classes at start.
 */
final class ApiRebinder {
    static final String BRIDGE = "io.qosweaver.api.internal.Bridge";

    private ApiRebinder() {}

    /** Returns how many copies were rebound; never throws (the API then stays a no-op). */
    static int rebind(Instrumentation inst, AgentLog log) {
        int n = 0;
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (!c.getName().equals(BRIDGE)) {
                continue;
            }
            try {
                c.getMethod("rebind").invoke(null);
                n++;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                log.loud("could not reach the Java API's bridge in " + c.getClassLoader() + " (" + e
                        + "); its shares stay unscheduled");
            }
        }
        if (n > 0) {
            log.debug("Java API bridges rebound: " + n);
        }
        return n;
    }
}
