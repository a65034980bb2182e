package io.qosweaver.cli.ctl;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.PolicyFileException;
import io.qosweaver.platform.ControlClient;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code qosweaver attach PID --policy FILE}: loads the agent into a running JVM of the same user
 * (the JDK's attach API) and weaves the policy into the classes it has loaded and those it loads
 * later. The file is read and checked here first, as the agent will (the task classes, the
 * policy's name and parameters), so that a broken one never reaches the application.
 *
 * <p>Requests already running when the agent arrives run their course unmanaged (their methods'
 * old code stays on their stacks); those that start after it are scheduled.
 */
@Command(name = "attach", mixinStandardHelpOptions = true,
        description = "Load the QoSWeaver agent into a running JVM: with a policy file, or in its profiling mode.",
        footer = {"%nExamples:",
                "  qosweaver attach 4242 --policy examples/policies/river-monitor.yaml",
                "  qosweaver attach 4242 --profile chart.qwp --include org.jfree+org.rivermonitor   (paused; then"
                        + " qosweaver ctl 4242 profile start, your requests, qosweaver ctl 4242 profile stop)",
                "%nOn JDK 21 and later the JVM prints a warning about a dynamically loaded agent; start it with"
                        + " -XX:+EnableDynamicAgentLoading to say that you allow it. A JVM started with"
                        + " -XX:+DisableAttachMechanism cannot be attached to."})
public final class AttachCommand implements Callable<Integer> {
    static final long SOCKET_WAIT_MS = 10_000;

    @Parameters(index = "0", paramLabel = "PID", description = "the JVM's process id")
    long pid;

    @Option(names = "--policy", paramLabel = "FILE", description = "the policy file (YAML)")
    Path policy;

    @Option(names = "--profile", paramLabel = "OUT.qwp",
            description = "instead of a policy: profile into this file (recording paused until ctl PID profile start)")
    Path profile;

    @Option(names = "--include", paramLabel = "PKG[+PKG...]", description = "with --profile: the packages to profile")
    String include;

    @Option(names = "--metrics-port", paramLabel = "N",
            description = "port of the agent's Prometheus endpoint on loopback (0 = any free port)")
    Integer metricsPort;

    @Option(names = "--agent", paramLabel = "JAR",
            description = "the agent jar (default: agent/target/qosweaver-agent.jar in the project)")
    Path agent;

    @Override
    public Integer call() {
        if (pid == ProcessHandle.current().pid()) {
            System.err.println("qosweaver attach: " + pid + " is this command's own process");
            return 2;
        }
        if ((policy == null) == (profile == null)) {
            System.err.println("qosweaver attach: give either --policy FILE or --profile OUT.qwp --include PKG");
            return 2;
        }
        if ((profile != null) != (include != null)) {
            System.err.println("qosweaver attach: --profile and --include go together");
            return 2;
        }
        Path file = (policy != null ? policy : profile).toAbsolutePath().normalize();
        if (policy != null) {
            try {
                check(file);
            } catch (IllegalArgumentException e) {
                System.err.println("qosweaver attach: " + e.getMessage() + "; nothing was attached");
                return 2;
            }
        } else if (include.isBlank() || include.contains(",")) {
            System.err.println("qosweaver attach: --include takes packages separated by + (e.g. org.jfree+org.example)");
            return 2;
        }
        Path jar = agent != null ? agent : Layout.find().agentJar();
        if (!Files.isRegularFile(jar)) {
            System.err.println("qosweaver attach: the agent jar " + jar + " is missing (build it: ./mvnw -pl agent -am"
                    + " package, or give --agent JAR)");
            return 2;
        }
        if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            System.err.println("qosweaver attach: no process with pid " + pid);
            return 1;
        }
        if (ControlClient.reachable(pid)) {
            System.err.println("qosweaver attach: process " + pid + " already runs the QoSWeaver agent; " + (policy != null
                    ? "change its policy with qosweaver ctl " + pid + " swap " + file : "see qosweaver ctl " + pid
                    + " status"));
            return 1;
        }
        String args = (policy != null ? "policy=" + file : "profile=" + file + ",include=" + include + ",start=paused")
                + (metricsPort != null ? ",metricsPort=" + metricsPort : "");
        try {
            load(jar, args);
        } catch (AttachNotSupportedException e) {
            System.err.println("qosweaver attach: cannot attach to process " + pid + ": " + e.getMessage() + " (is it a"
                    + " JVM of this user, started without -XX:+DisableAttachMechanism?)");
            return 1;
        } catch (AgentInitializationException e) {
            System.err.println("qosweaver attach: the agent did not start in process " + pid + " (its reason is in"
                    + " that JVM's output); the application runs on as before");
            return 1;
        } catch (AgentLoadException | IOException e) {
            System.err.println("qosweaver attach: loading the agent into process " + pid + " failed: " + e.getMessage());
            return 1;
        }
        long deadline = System.nanoTime() + SOCKET_WAIT_MS * 1_000_000;
        while (!ControlClient.reachable(pid)) {
            if (System.nanoTime() > deadline) {
                System.err.println("qosweaver attach: the agent was loaded into process " + pid + " but its control"
                        + " socket did not answer within " + SOCKET_WAIT_MS / 1000 + " s (see that JVM's output)");
                return 1;
            }
            try {
                Thread.sleep(50); // the agent opens its socket at the end of its start; nothing to wait on from here
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 1;
            }
        }
        try {
            System.out.print(ControlClient.send(pid, "status").text());
        } catch (IOException e) {
            System.err.println("qosweaver attach: attached, but status failed: " + e.getMessage());
            return 1;
        }
        return 0;
    }

    private void load(Path jar, String args) throws AttachNotSupportedException, IOException, AgentLoadException,
            AgentInitializationException {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
        try {
            vm.loadAgent(jar.toAbsolutePath().toString(), args);
        } finally {
            vm.detach();
        }
    }

    /**
     * Reads the policy file and checks its scheduler configuration as the agent will.
     *
     * @throws IllegalArgumentException naming the file, line and problem
     */
    static void check(Path file) {
        PolicyFile p;
        try {
            p = PolicyFile.load(file);
        } catch (PolicyFileException e) {
            throw new IllegalArgumentException("policy " + e.getMessage(), e);
        }
        List<TaskClassSpec> specs = new ArrayList<>();
        for (PolicyFile.TaskClassDef t : p.taskClasses()) {
            specs.add(new TaskClassSpec(t.name(), t.attributes()));
        }
        try {
            Scheduler.validate(new SchedulerConfig(specs, new SchedulerConfig.PolicySpec(p.policyName(),
                    p.policyParameters())));
        } catch (PolicyConfigException e) {
            throw new IllegalArgumentException("policy " + p.configError(e.key(), e.getMessage()).getMessage(), e);
        }
    }
}
