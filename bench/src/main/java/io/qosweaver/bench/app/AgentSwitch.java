package io.qosweaver.bench.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Switches QoSWeaver in a running app through its local control: {@code swap POLICY} weaves a policy
 * file in (all or nothing), {@code unweave} leaves the unscheduled app in the same process; each is
 * checked by {@code status}, so a caller measures only once the state it asked for is in force.
 * Experiments that compare states inside one process (a process differs from the next by more
 * than the effects measured) use it.
 */
public final class AgentSwitch {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A JVM's control socket; a seam, so that tests can answer as the agent would. */
    @FunctionalInterface
    public interface Control {
        ControlClient.Reply send(String line) throws IOException;

        /** The control socket of process {@code pid}, each request bounded by {@code timeout}. */
        static Control of(long pid, Duration timeout) {
            return line -> ControlClient.send(pid, line, timeout);
        }
    }

    private AgentSwitch() {
    }

    /**
     * Weaves {@code policy} in ({@code swap}), or unweaves when it is null; returns once the agent's
     * status says so.
     *
     * @throws IOException the agent refused (its answer says why), or its status disagrees afterwards
     */
    public static void set(Control control, Path policy) throws IOException {
        String line = policy != null ? "swap " + policy.toAbsolutePath() : "unweave";
        ControlClient.Reply r = control.send(line);
        if (!r.ok()) {
            throw new IOException("the agent refused '" + line + "': " + r.text().strip());
        }
        ControlClient.Reply status = control.send("--json status");
        JsonNode root = status.ok() ? JSON.readTree(status.text()) : null;
        boolean inForce = root != null && root.path("inForce").asBoolean(false);
        if (inForce != (policy != null)) {
            throw new IOException("after '" + line + "' the agent's status says the policy is "
                    + (inForce ? "in force" : "not in force") + ": " + status.text().strip());
        }
    }
}
