package io.qosweaver.bench.flashcrowd;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.Map;

/** Results: the parameters, the machine, both windows, and whether the failure reproduced. */
public record FlashCrowdResult(String experiment, String generatedAt, String command, Map<String, Object> parameters,
                     Map<String, Object> machine, Map<String, ScenarioResult> scenarios, boolean reproduced,
                     String criterion, String appLog) {
}
