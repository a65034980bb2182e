package io.qosweaver.cli.run;

import io.qosweaver.cli.launch.JavaCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qosweaver run --policy FILE -- java ...}: the given java command with the agent
 * flag inserted right after the executable, run with inherited IO; its exit code is ours.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a java command with the QoSWeaver agent and a policy file.",
        footer = "%nExample: qosweaver run --policy examples/policies/river-monitor.yaml -- "
                + "java -jar examples/river-monitor/target/river-monitor.jar")
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--policy", required = true, paramLabel = "FILE", description = "the policy file (YAML)")
    Path policy;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "port of the agent's Prometheus endpoint (0 = any free port)")
    Integer metricsPort;

    @Mixin
    JavaCommand java = new JavaCommand();

    @Override
    public Integer call() throws Exception {
        List<String> cmd;
        try {
            cmd = rewrite(java.command, java.agentJar(), policy, metricsPort);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver run: " + e.getMessage());
            return 2;
        }
        return JavaCommand.run(cmd);
    }

    /**
     * The command with {@code -javaagent:AGENT=policy=FILE[,metricsPort=N]} right after the
     * java executable.
     *
     * @throws IllegalArgumentException with a message for the user when the command is not a
     *                                  java command or a file is missing
     */
    static List<String> rewrite(List<String> command, Path agentJar, Path policy, Integer metricsPort) {
        if (!Files.isRegularFile(policy)) {
            throw new IllegalArgumentException("policy file not found: " + policy.toAbsolutePath());
        }
        return JavaCommand.withAgent(command, agentJar, "policy=" + policy.toAbsolutePath()
                + (metricsPort != null ? ",metricsPort=" + metricsPort : ""), "qosweaver run --policy FILE -- java ...");
    }
}
