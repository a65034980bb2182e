package io.qosweaver.bench.swap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies one step of the plan through the app's local control and measures it: the round trip
 * of the command is the swap latency (the agent answers a {@code swap}, {@code set} or
 * {@code unweave} once the new policy is in force), then {@code status --json} says which policy
 * the app really runs.
 */
final class ControlSteps {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The agent's own measure in a swap's answer: {@code swapped to FILE (...) in 37 ms; ...}. */
    private static final Pattern AGENT_MS = Pattern.compile("\\) in (\\d+) ms");

    /** A JVM's control socket; a seam, so that tests can answer as the agent would. */
    @FunctionalInterface
    interface Control {
        ControlClient.Reply send(String line) throws IOException;

        /** The control socket of process {@code pid}, each request bounded by {@code timeout}. */
        static Control of(long pid, java.time.Duration timeout) {
            return line -> ControlClient.send(pid, line, timeout);
        }
    }

    /** What {@code status --json} says: the policy in force and the threads its scheduler has parked now. */
    record Status(String label, Integer suspendedThreads) {
    }

    private ControlSteps() {
    }

    /**
     * Sends {@code step}, runs {@code onAnswer} as soon as the answer is in (whatever it is), then
     * asks for the status; never throws for what the app answers.
     */
    static SwapResult.StepResult apply(int index, double offsetS, SwapPlan.Step step, Control control,
                                       Runnable onAnswer) {
        long t0 = System.nanoTime();
        boolean ok;
        String message;
        try {
            ControlClient.Reply r = control.send(step.command());
            ok = r.ok();
            message = r.text().strip();
        } catch (IOException e) {
            ok = false;
            message = "control unreachable: " + e.getMessage();
        }
        double roundTripMs = (System.nanoTime() - t0) / 1e6;
        onAnswer.run();
        String after;
        try {
            after = status(control).label();
        } catch (IOException e) {
            after = null;
            message = message + "; status failed: " + e.getMessage();
        }
        return new SwapResult.StepResult(index, Math.round(offsetS * 1000) / 1000.0, step.shortCommand(), step.kind(),
                ok, Math.round(roundTripMs * 1000) / 1000.0, agentMs(message), step.expected(), after,
                ok && step.expected().equals(after), firstLine(message));
    }

    /** The policy in force and its parked threads, from {@code --json status}. */
    static Status status(Control control) throws IOException {
        ControlClient.Reply r = control.send("--json status");
        if (!r.ok()) {
            throw new IOException("status refused: " + r.text().strip());
        }
        return parseStatus(r.text());
    }

    static Status parseStatus(String json) throws IOException {
        JsonNode root = JSON.readTree(json);
        if (root == null || !root.isObject()) {
            throw new IOException("status: not a JSON object: " + json.strip());
        }
        JsonNode sched = root.path("scheduler");
        Integer suspended = sched.has("suspendedThreads") ? sched.get("suspendedThreads").asInt() : null;
        if (!root.path("inForce").asBoolean(false)) {
            return new Status(SwapPlan.NONE, suspended);
        }
        JsonNode low = root.path("parameters").path("lowLimit");
        return new Status(SwapPlan.label(root.path("policy").asText("?"), low.isMissingNode() ? "?" : low.asText()),
                suspended);
    }

    /** The agent's own duration of a swap, or null when its answer does not say. */
    static Double agentMs(String message) {
        Matcher m = AGENT_MS.matcher(message);
        return m.find() ? Double.valueOf(m.group(1)) : null;
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
