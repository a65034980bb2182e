package io.qosweaver.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.qosweaver.bench.river.ScenarioResult;

/** {@code RESULTS.md}: the machine, the exact command, the table; what a commit of results quotes. */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    public static void write(Path dir, String title, String command, List<String> summary,
                             Map<String, ScenarioResult> columns, Map<String, Object> parameters,
                             Map<String, Object> machine) throws IOException {
        StringBuilder m = new StringBuilder();
        m.append("# ").append(title).append("\n\n");
        for (String s : summary) {
            m.append(s).append("\n\n");
        }
        m.append("Command (from the project root):\n\n```\n").append(command).append("\n```\n\n");
        m.append("## Results\n\n| metric |");
        columns.keySet().forEach(k -> m.append(' ').append(k).append(" |"));
        m.append("\n|---|");
        columns.keySet().forEach(k -> m.append("---|"));
        m.append('\n');
        for (String[] row : Table.rows(columns)) {
            m.append('|');
            for (String cell : row) {
                m.append(' ').append(cell).append(" |");
            }
            m.append('\n');
        }
        m.append("\nCollections are counted when they START inside the measured window; times in ms.\n");
        m.append("Raw numbers, every collection and the per-second load series: `results.json`; plots: `index.html`.\n\n");
        m.append("## Parameters\n\n");
        parameters.forEach((k, v) -> m.append("- ").append(k).append(": ").append(v).append('\n'));
        m.append("\n## Machine\n\n");
        machine.forEach((k, v) -> m.append("- ").append(k).append(": ").append(v).append('\n'));
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("RESULTS.md"), m.toString());
    }
}
