package io.qosweaver.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import io.qosweaver.bench.experiment.Layout;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code qosweaver run --policy FILE -- java ...}: the given java command with the agent
 * flag inserted right after the executable, run with inherited IO; its exit code is ours.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a java command with the QoSWeaver agent and a policy file.",
        footer = "%nExample: qosweaver run --policy examples/policies/river-monitor.yaml -- "
                + "java -jar examples/river-monitor/target/river-monitor.jar")
final class RunCommand implements Callable<Integer> {

    @Option(names = "--policy", required = true, paramLabel = "FILE", description = "the policy file (YAML)")
    Path policy;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "port of the agent's Prometheus endpoint (0 = any free port)")
    Integer metricsPort;

    @Option(names = "--agent", paramLabel = "JAR",
            description = "the agent jar (default: agent/target/qosweaver-agent.jar in the project)")
    Path agent;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "the java command, after --")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        Path agentJar = agent != null ? agent : Layout.find().agentJar();
        List<String> cmd;
        try {
            cmd = rewrite(command, agentJar, policy, metricsPort);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver run: " + e.getMessage());
            return 2;
        }
        return runChild(cmd);
    }

    /**
     * Runs a command with inherited IO and returns its exit code; stopping qosweaver (Ctrl-C)
     * stops the child too, which still runs its own shutdown hooks (the agent's included).
     */
    static int runChild(List<String> cmd) throws java.io.IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (p.isAlive()) {
                p.destroy();
            }
        }));
        return p.waitFor();
    }

    /**
     * The command with {@code -javaagent:AGENT=policy=FILE[,metricsPort=N]} right after the
     * java executable.
     *
     * @throws IllegalArgumentException with a message for the user when the command is not a
     *                                  java command or a file is missing
     */
    static List<String> rewrite(List<String> command, Path agentJar, Path policy, Integer metricsPort) {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("no command given; usage: qosweaver run --policy FILE -- java ...");
        }
        String exe = command.get(0);
        if (!isJava(exe)) {
            throw new IllegalArgumentException("'" + exe + "' is not a java command: the command after -- must start "
                    + "with java (or a path to a java executable), e.g. -- java -jar app.jar");
        }
        if (!Files.isRegularFile(policy)) {
            throw new IllegalArgumentException("policy file not found: " + policy.toAbsolutePath());
        }
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("agent jar not found: " + agentJar.toAbsolutePath()
                    + " (build it with ./mvnw -q -B -DskipTests -pl agent -am package)");
        }
        if (command.stream().anyMatch(a -> a.startsWith("-javaagent:") && a.contains("qosweaver-agent"))) {
            throw new IllegalArgumentException("the command already has the QoSWeaver agent");
        }
        String flag = "-javaagent:" + agentJar.toAbsolutePath() + "=policy=" + policy.toAbsolutePath()
                + (metricsPort != null ? ",metricsPort=" + metricsPort : "");
        List<String> out = new ArrayList<>(command.size() + 1);
        out.add(exe);
        out.add(flag);
        out.addAll(command.subList(1, command.size()));
        return out;
    }

    static boolean isJava(String exe) {
        String name = Path.of(exe).getFileName().toString();
        return name.equals("java") || name.equals("java.exe");
    }
}
