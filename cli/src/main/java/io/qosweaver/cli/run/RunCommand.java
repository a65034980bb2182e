package io.qosweaver.cli.run;

import io.qosweaver.cli.launch.JavaCommand;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.PolicyFileException;
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
            String warning = check(policy);
            if (warning != null) {
                System.err.println("qosweaver run: " + warning);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver run: " + e.getMessage());
            return 2;
        }
        return JavaCommand.run(cmd);
    }

    /**
     * Reads the policy file as the agent will, before a JVM is started for nothing: a file the
     * agent would refuse is refused here with the agent's message ({@code FILE:LINE:COLUMN:
     * problem}); one that asks to fail open is started anyway, and the returned warning says the
     * application will run unscheduled. What the policy's name and parameters mean is checked by
     * the agent's scheduler only.
     *
     * @return null when the file reads, else the warning for a file that fails open
     * @throws IllegalArgumentException when the agent would refuse the file
     */
    static String check(Path policy) {
        try {
            PolicyFile.load(policy);
            return null;
        } catch (PolicyFileException e) {
            if (PolicyFile.declaresFailOpen(policy)) {
                return e.getMessage() + " (failOpen: true, so the application starts unscheduled)";
            }
            throw new IllegalArgumentException(e.getMessage(), e);
        }
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
