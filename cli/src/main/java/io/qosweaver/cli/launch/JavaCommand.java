package io.qosweaver.cli.launch;

import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * What {@code run} and {@code profile} share: the java command after {@code --}, the agent jar,
 * and putting the {@code -javaagent} flag right after the java executable.
 */
public final class JavaCommand {
    @Option(names = "--agent", paramLabel = "JAR",
            description = "the agent jar (default: agent/target/qosweaver-agent.jar in the project)")
    Path agent;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "the java command, after --")
    public List<String> command = new ArrayList<>();

    public Path agentJar() {
        return agent != null ? agent : Layout.find().agentJar();
    }

    /**
     * The command with {@code -javaagent:AGENT=ARGS} right after the java executable.
     *
     * @throws IllegalArgumentException with a message for the user when the command is not a
     *                                  java command or the agent jar is missing
     */
    public static List<String> withAgent(List<String> command, Path agentJar, String agentArgs, String usage) {
        if (command == null || command.isEmpty()) {
            throw new IllegalArgumentException("no command given; usage: " + usage);
        }
        String exe = command.get(0);
        if (!isJava(exe)) {
            throw new IllegalArgumentException("'" + exe + "' is not a java command: the command after -- must start "
                    + "with java (or a path to a java executable), e.g. -- java -jar app.jar");
        }
        if (!Files.isRegularFile(agentJar)) {
            throw new IllegalArgumentException("agent jar not found: " + agentJar.toAbsolutePath()
                    + " (build it with ./mvnw -q -B -DskipTests -pl agent -am package)");
        }
        if (command.stream().anyMatch(a -> a.startsWith("-javaagent:") && a.contains("qosweaver-agent"))) {
            throw new IllegalArgumentException("the command already has the QoSWeaver agent");
        }
        List<String> out = new ArrayList<>(command.size() + 1);
        out.add(exe);
        out.add("-javaagent:" + agentJar.toAbsolutePath() + "=" + agentArgs);
        out.addAll(command.subList(1, command.size()));
        return out;
    }

    static boolean isJava(String exe) {
        String name = Path.of(exe).getFileName().toString();
        return name.equals("java") || name.equals("java.exe");
    }

    /**
     * Runs a command with inherited IO and returns its exit code; stopping qosweaver (Ctrl-C)
     * stops the child too, which still runs its own shutdown hooks (the agent's included).
     */
    public static int run(List<String> cmd) throws java.io.IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).inheritIO().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (p.isAlive()) {
                p.destroy();
            }
        }));
        return p.waitFor();
    }
}
