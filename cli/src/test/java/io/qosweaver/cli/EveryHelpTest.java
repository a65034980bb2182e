package io.qosweaver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's help renders as written: a bare {@code %} in a description makes picocli print it raw, with a warning. */
class EveryHelpTest {

    private static void collect(CommandLine cl, List<CommandLine> out) {
        out.add(cl);
        cl.getSubcommands().values().forEach(sub -> collect(sub, out));
    }

    @Test
    void everyCommandsUsageFormatsWithoutWarnings() {
        List<CommandLine> all = new ArrayList<>();
        collect(Main.commandLine(), all);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            for (CommandLine cl : all) {
                assertThat(cl.getUsageMessage()).as(cl.getCommandName()).isNotBlank();
            }
        } finally {
            System.setErr(err);
        }
        assertThat(all.size()).as("the bench experiments and the other commands").isGreaterThan(20);
        assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain("Could not format");
    }
}
