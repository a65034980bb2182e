package io.qosweaver.bench.swap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Steps against a fake control that answers as the agent does (RuntimeCommands), with its state. */
class ControlStepsTest {
    private static final Path IMPORTANCE = Path.of("/r/policies/river-monitor.yaml");
    private static final Path ADMISSION = Path.of("/r/policies/admission.yaml");

    /** The agent's answers, its policy in force and the requests it got. */
    static final class FakeAgent implements ControlSteps.Control {
        String policy = "importance";
        String lowLimit = "1";
        int suspended;
        boolean brokenSwaps;
        final List<String> requests = new ArrayList<>();

        @Override
        public ControlClient.Reply send(String line) throws IOException {
            requests.add(line);
            String[] w = line.split(" ");
            switch (w[0]) {
                case "--json":
                    if (policy == null) {
                        return new ControlClient.Reply(true, "{\"pid\":1,\"policyFile\":\"x\",\"inForce\":false}");
                    }
                    return new ControlClient.Reply(true, "{\"pid\":1,\"inForce\":true,\"policy\":\"" + policy
                            + "\",\"parameters\":{\"name\":\"" + policy + "\",\"lowLimit\":\"" + lowLimit
                            + "\"},\"scheduler\":{\"controlPoints\":5,\"suspendedThreads\":" + suspended + "}}");
                case "swap":
                    if (brokenSwaps) {
                        return new ControlClient.Reply(false, "policy " + w[1] + ":3: bad; the policy in force is unchanged\n");
                    }
                    policy = w[1].contains("admission") ? "admission" : "importance";
                    lowLimit = "1";
                    return new ControlClient.Reply(true, "swapped to " + w[1] + " (policy " + policy
                            + ", 2 task classes, 28 control-point pointcuts) in 137 ms; 40 classes woven\n");
                case "unweave":
                    policy = null;
                    return new ControlClient.Reply(true, "unwoven: every woven class is back to its original bytes\n");
                case "set":
                    if (policy == null) {
                        return new ControlClient.Reply(false, "no policy is in force (unwoven): swap one in first\n");
                    }
                    lowLimit = w[1].substring(w[1].indexOf('=') + 1);
                    return new ControlClient.Reply(true, "set {lowLimit=" + lowLimit + "} on policy " + policy + "\n");
                default:
                    throw new IOException("unexpected " + line);
            }
        }
    }

    @Test
    void aWholeCycleIsVerifiedAgainstTheStatusAndTheAgentsOwnSwapTimeIsKept() {
        FakeAgent agent = new FakeAgent();
        List<SwapPlan.Step> plan = SwapPlan.steps(SwapPlan.cycle(IMPORTANCE, ADMISSION), 6);
        int[] answers = new int[1];
        List<SwapResult.StepResult> rs = new ArrayList<>();
        for (int i = 0; i < plan.size(); i++) {
            rs.add(ControlSteps.apply(i + 1, 10.0 * (i + 1), plan.get(i), agent, () -> answers[0]++));
        }
        assertThat(answers[0]).isEqualTo(6);
        assertThat(rs).allMatch(SwapResult.StepResult::verified);
        assertThat(rs).extracting(SwapResult.StepResult::inForce).containsExactly("admission lowLimit=1", "none",
                "importance lowLimit=1", "importance lowLimit=2", "importance lowLimit=1", "admission lowLimit=1");
        assertThat(rs).extracting(SwapResult.StepResult::command).startsWith("swap admission.yaml", "unweave",
                "swap river-monitor.yaml", "set policy.lowLimit=2");
        assertThat(rs.get(0).agentMs()).isEqualTo(137.0);
        assertThat(rs.get(1).agentMs()).isNull();
        assertThat(rs).allMatch(r -> r.roundTripMs() >= 0);
        assertThat(agent.requests).contains("swap " + ADMISSION, "--json status", "set policy.lowLimit=2");
    }

    @Test
    void aRefusedSwapIsAFailedStepAndTheOldPolicyIsWhatRuns() {
        FakeAgent agent = new FakeAgent();
        agent.brokenSwaps = true;
        SwapResult.StepResult r = ControlSteps.apply(1, 3, SwapPlan.cycle(IMPORTANCE, ADMISSION).get(0), agent, () -> { });
        assertThat(r.ok()).isFalse();
        assertThat(r.verified()).isFalse();
        assertThat(r.inForce()).isEqualTo("importance lowLimit=1");
        assertThat(r.message()).contains("the policy in force is unchanged");
    }

    @Test
    void anUnreachableAppIsAFailedStepNotAnException() {
        ControlSteps.Control dead = line -> {
            throw new ControlClient.Unreachable("no process with pid 42");
        };
        boolean[] answered = new boolean[1];
        SwapResult.StepResult r = ControlSteps.apply(1, 3, new SwapPlan.Step("unweave", "unweave", "none"), dead,
                () -> answered[0] = true);
        assertThat(r.ok()).isFalse();
        assertThat(r.inForce()).isNull();
        assertThat(r.message()).contains("no process with pid 42");
        assertThat(answered[0]).as("the phase ends even when the change fails").isTrue();
    }

    @Test
    void statusParsing() throws IOException {
        assertThat(ControlSteps.parseStatus("{\"inForce\":false}")).isEqualTo(new ControlSteps.Status("none", null));
        assertThat(ControlSteps.parseStatus("{\"inForce\":true,\"policy\":\"admission\",\"parameters\":"
                + "{\"lowLimit\":\"2\"},\"scheduler\":{\"suspendedThreads\":3}}"))
                .isEqualTo(new ControlSteps.Status("admission lowLimit=2", 3));
        assertThatThrownBy(() -> ControlSteps.parseStatus("[1]")).hasMessageContaining("not a JSON object");
        assertThat(ControlSteps.agentMs("swapped to /a.yaml (policy x, 2 task classes, 3 control-point pointcuts) "
                + "in 12 ms; 4 classes woven")).isEqualTo(12.0);
        assertThat(ControlSteps.agentMs("set {lowLimit=2} on policy importance")).isNull();
    }

    @Test
    void theCycleNeedsAbsoluteFiles() {
        assertThatThrownBy(() -> SwapPlan.cycle(Path.of("river-monitor.yaml"), ADMISSION))
                .hasMessageContaining("absolute");
        assertThat(SwapPlan.steps(SwapPlan.cycle(IMPORTANCE, ADMISSION), 17)).hasSize(17)
                .last().extracting(SwapPlan.Step::kind).as("the 17th change of the 3-minute run").isEqualTo("unweave");
    }

    @Test
    void theRealControlIsBoundedInTime() throws Exception {
        long self = ProcessHandle.current().pid();
        Path socket = io.qosweaver.platform.ControlClient.socket(self);
        ControlSteps.Control control = ControlSteps.Control.of(self, java.time.Duration.ofSeconds(1));
        assertThatThrownBy(() -> control.send("status")).as("no socket: the client's own message")
                .isInstanceOf(ControlClient.Unreachable.class).hasMessageContaining("is missing");
        // an app that accepts and never answers
        java.nio.file.Files.createDirectories(socket.getParent());
        try (java.nio.channels.ServerSocketChannel server =
                     java.nio.channels.ServerSocketChannel.open(java.net.StandardProtocolFamily.UNIX)) {
            server.bind(java.net.UnixDomainSocketAddress.of(socket));
            long t0 = System.nanoTime();
            assertThatThrownBy(() -> control.send("swap /x.yaml")).isInstanceOf(IOException.class)
                    .hasMessage("no answer to 'swap /x.yaml' within 1 s");
            assertThat((System.nanoTime() - t0) / 1e9).as("seconds waited").isLessThan(30);
        } finally {
            java.nio.file.Files.deleteIfExists(socket);
        }
    }
}
