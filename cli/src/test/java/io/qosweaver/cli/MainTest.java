package io.qosweaver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine;

class MainTest {
    @Command(name = "broken")
    static final class Broken implements Callable<Integer> {
        final Exception e;

        Broken(Exception e) {
            this.e = e;
        }

        @Override
        public Integer call() throws Exception {
            throw e;
        }
    }

    private static String run(Exception e, int[] exit) {
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new Broken(e)).setExecutionExceptionHandler(Main::failed)
                .setErr(new PrintWriter(err, true));
        exit[0] = cmd.execute();
        return err.toString();
    }

    @Test
    void anIoFailureIsOneLineNamingIt() {
        int[] exit = new int[1];
        String err = run(new java.nio.file.FileAlreadyExistsException("/tmp/x/policy.yaml"), exit);
        assertThat(exit[0]).isEqualTo(1);
        assertThat(err.strip()).doesNotContain("\n").startsWith("broken: error:").contains("/tmp/x/policy.yaml");
    }

    @Test
    void aBugKeepsItsStackTrace() {
        int[] exit = new int[1];
        String err = run(new NullPointerException("boom"), exit);
        assertThat(exit[0]).isEqualTo(1);
        assertThat(err).contains("internal error").contains("NullPointerException: boom").contains("\tat ");
    }

    @Test
    void theRealCommandLineUsesTheHandler() {
        assertThat(Main.commandLine().getExecutionExceptionHandler()).isNotNull();
        int[] exit = new int[1];
        assertThat(run(new IOException("disk full"), exit)).contains("disk full");
    }
}
