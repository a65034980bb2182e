package io.qosweaver.cli.ctl;

import io.qosweaver.platform.ControlClient;
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
 * {@code qosweaver ctl PID COMMAND ...}: status, swap, set and unweave on a JVM running the agent,
 * however it was loaded. Exit 0 when the agent did it, 1 when it refused or could not be reached
 * (one line saying why), 2 for a bad command line.
 */
@Command(name = "ctl", mixinStandardHelpOptions = true,
        description = "Control a JVM running the QoSWeaver agent: status, swap FILE, set policy.KEY=VALUE ..., unweave;"
                + " profile start|stop|status when it runs in its profiling mode.",
        footer = {"%nExamples:",
                "  qosweaver ctl 4242 status",
                "  qosweaver ctl 4242 swap examples/policies/versions/admission.yaml",
                "  qosweaver ctl 4242 set policy.lowLimit=2",
                "  qosweaver ctl 4242 unweave",
                "  qosweaver ctl 4242 status --json   (the JSON's keys: agent/README.md, \"status --json\")",
                "  qosweaver ctl 4242 hooks count start   (hooks mode: every hook counts; hooks count stop answers the counts)",
                "  qosweaver ctl 4242 profile start   (after qosweaver attach 4242 --profile OUT.qwp --include PKG)",
                "%nA swap is all or nothing: the new file is read and checked before the old policy is unwoven;"
                        + " on any failure the old one keeps running. Tasks already running when the policy changes"
                        + " (swap or set) are adopted by the new scheduler if the new file has a task class of the"
                        + " same name (the answer says how many, per class): its policy applies to them at once and"
                        + " their exits reach it; those of other names, and any started before an unweave, finish"
                        + " unmanaged."})
public final class CtlCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "PID", description = "the JVM's process id")
    long pid;

    @Parameters(index = "1", paramLabel = "COMMAND", description = "status | swap | set | unweave | hooks | profile")
    String command;

    @Parameters(index = "2..*", paramLabel = "ARG",
            description = "swap: a policy file; set: policy.KEY=VALUE ...; hooks: count start | stop | status;"
                    + " profile: start | stop | status")
    List<String> args = new ArrayList<>();

    @Option(names = "--json", description = "answer in JSON (for scripts)")
    boolean json;

    @Override
    public Integer call() {
        List<String> words = new ArrayList<>();
        if (json) {
            words.add("--json");
        }
        words.add(command);
        if (command.equals("swap")) {
            if (args.size() != 1) {
                System.err.println("qosweaver ctl: swap takes one policy file");
                return 2;
            }
            Path file = Path.of(args.get(0)).toAbsolutePath().normalize();
            if (!Files.isReadable(file)) {
                System.err.println("qosweaver ctl: " + file + ": no such readable file; nothing sent");
                return 2;
            }
            words.add(file.toString());
        } else {
            for (String a : args) {
                if (a.isBlank() || a.chars().anyMatch(Character::isWhitespace)) {
                    System.err.println("qosweaver ctl: '" + a + "': arguments cannot contain blanks");
                    return 2;
                }
                words.add(a);
            }
        }
        try {
            ControlClient.Reply r = ControlClient.send(pid, String.join(" ", words));
            String text = r.text().endsWith("\n") ? r.text() : r.text() + "\n";
            if (r.ok()) {
                System.out.print(text);
                return 0;
            }
            System.err.print("qosweaver ctl: " + text);
            return 1;
        } catch (IOException e) {
            System.err.println("qosweaver ctl: " + e.getMessage());
            return 1;
        }
    }
}
