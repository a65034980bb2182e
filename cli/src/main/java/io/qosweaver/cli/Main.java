package io.qosweaver.cli;

import io.qosweaver.cli.bench.BenchCommand;
import io.qosweaver.cli.bench.DemoCommand;
import io.qosweaver.cli.ctl.AttachCommand;
import io.qosweaver.cli.ctl.CtlCommand;
import io.qosweaver.cli.ctl.WatchCommand;
import io.qosweaver.cli.pointcuts.PointcutsCommand;
import io.qosweaver.cli.profile.ProfileCommand;
import io.qosweaver.cli.run.RunCommand;
import io.qosweaver.cli.trace.TraceCommand;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/** {@code qosweaver}: the command line. Thin: experiments live in the bench module. */
@Command(name = "qosweaver", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Application-level scheduling woven into unmodified Java web applications.",
        subcommands = {RunCommand.class, AttachCommand.class, CtlCommand.class, WatchCommand.class, ProfileCommand.class,
                PointcutsCommand.class, TraceCommand.class, BenchCommand.class, DemoCommand.class, CommandLine.HelpCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        return new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(Main::failed);
    }

    /**
     * An I/O failure (a missing jar, a port in use, a report directory that cannot be written) is
     * the user's to fix: one line naming it, exit 1. Anything else is our bug and keeps its trace.
     */
    static int failed(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        String who = cmd.getCommandSpec().qualifiedName();
        if (e instanceof IOException || e instanceof java.io.UncheckedIOException) {
            cmd.getErr().println(who + ": error: " + e);
        } else {
            cmd.getErr().println(who + ": internal error (please report):");
            e.printStackTrace(cmd.getErr());
        }
        cmd.getErr().flush();
        return 1;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    /** The version from the build (the cli jar's filtered properties). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("/qosweaver-cli.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException ignored) {
                // unknown version
            }
            return new String[] {"qosweaver " + p.getProperty("version", "unknown"),
                    "JVM " + System.getProperty("java.runtime.version") + " (" + System.getProperty("java.vm.name") + ")"};
        }
    }
}
