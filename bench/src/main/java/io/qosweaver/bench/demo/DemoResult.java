package io.qosweaver.bench.demo;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.Map;

/** results.json of the demo. */
public record DemoResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine,
        Map<String, ScenarioResult> versions, Map<String, String> appLogs,
        Map<String, String> errors) {

    /** Whether every version asked for produced a result. */
    public boolean complete() {
        return errors.isEmpty();
    }

}
