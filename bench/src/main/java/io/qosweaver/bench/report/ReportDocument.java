package io.qosweaver.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;

/**
 * One experiment report, written twice from the same sections: {@code index.html} (plots
 * embedded as base64, readable offline) and {@code RESULTS.md} (what a commit of results quotes),
 * with every plot also written beside them as a PNG. Sections keep the order they were added in.
 */
public final class ReportDocument {
    private sealed interface Section permits Heading, Bullets, Paragraph, TableSection, Image, Pre {
    }

    private record Heading(String text) implements Section {
    }

    private record Bullets(List<String> items, boolean warning) implements Section {
    }

    private record Paragraph(String text) implements Section {
    }

    private record TableSection(List<String[]> rows) implements Section {
    }

    private record Image(String file, String caption, byte[] png) implements Section {
    }

    private record Pre(String text) implements Section {
    }

    private final String title;
    private final List<Section> sections = new ArrayList<>();

    public ReportDocument(String title) {
        this.title = title;
    }

    public ReportDocument heading(String text) {
        sections.add(new Heading(text));
        return this;
    }

    public ReportDocument bullets(List<String> items) {
        sections.add(new Bullets(List.copyOf(items), false));
        return this;
    }

    /** Bullets shown as a problem (red in HTML, bold in Markdown). */
    public ReportDocument warnings(List<String> items) {
        if (!items.isEmpty()) {
            sections.add(new Bullets(List.copyOf(items), true));
        }
        return this;
    }

    public ReportDocument paragraph(String text) {
        sections.add(new Paragraph(text));
        return this;
    }

    /** The command that produced the results, as a code block. */
    public ReportDocument command(String command) {
        sections.add(new Paragraph("Command (from the project root):"));
        sections.add(new Pre(command));
        return this;
    }

    /** First row is the header. */
    public ReportDocument table(List<String[]> rows) {
        sections.add(new TableSection(List.copyOf(rows)));
        return this;
    }

    public ReportDocument image(String file, String caption, JFreeChart chart) throws IOException {
        System.setProperty("java.awt.headless", "true");
        sections.add(new Image(file, caption, ScenarioCharts.png(chart)));
        return this;
    }

    public ReportDocument keyValues(String heading, Map<String, Object> values) {
        heading(heading);
        sections.add(new Pre(JsonWriter.write(values)));
        return this;
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Section s : sections) {
            if (s instanceof Image i) {
                Files.write(dir.resolve(i.file()), i.png());
            }
        }
        Files.writeString(dir.resolve("index.html"), html());
        Files.writeString(dir.resolve("RESULTS.md"), markdown());
    }

    String html() {
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;}"
                        + "table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #bbb;padding:4px 10px;"
                        + "text-align:right}th:first-child,td:first-child{text-align:left}img{max-width:100%}"
                        + ".bad{color:#b00}</style></head><body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        for (Section s : sections) {
            if (s instanceof Heading x) {
                h.append("<h2>").append(esc(x.text())).append("</h2>\n");
            } else if (s instanceof Bullets x) {
                h.append(x.warning() ? "<ul class=\"bad\">" : "<ul>");
                x.items().forEach(i -> h.append("<li>").append(esc(i)).append("</li>"));
                h.append("</ul>\n");
            } else if (s instanceof Paragraph x) {
                h.append("<p>").append(esc(x.text())).append("</p>\n");
            } else if (s instanceof Pre x) {
                h.append("<pre>").append(esc(x.text())).append("</pre>\n");
            } else if (s instanceof TableSection x) {
                h.append("<table>");
                for (int r = 0; r < x.rows().size(); r++) {
                    String tag = r == 0 ? "th" : "td";
                    h.append("<tr>");
                    for (String c : x.rows().get(r)) {
                        h.append('<').append(tag).append('>').append(esc(c)).append("</").append(tag).append('>');
                    }
                    h.append("</tr>\n");
                }
                h.append("</table>\n");
            } else if (s instanceof Image x) {
                h.append("<h3>").append(esc(x.caption())).append("</h3>\n<img alt=\"").append(esc(x.file()))
                        .append("\" src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(x.png()))
                        .append("\">\n");
            }
        }
        h.append("<p>Raw numbers: <a href=\"results.json\">results.json</a>.</p>\n</body></html>\n");
        return h.toString();
    }

    String markdown() {
        StringBuilder m = new StringBuilder("# ").append(title).append("\n\n");
        for (Section s : sections) {
            if (s instanceof Heading x) {
                m.append("## ").append(x.text()).append("\n\n");
            } else if (s instanceof Bullets x) {
                x.items().forEach(i -> m.append("- ").append(x.warning() ? "**" + i + "**" : i).append('\n'));
                m.append('\n');
            } else if (s instanceof Paragraph x) {
                m.append(x.text()).append("\n\n");
            } else if (s instanceof Pre x) {
                m.append("```\n").append(x.text()).append("\n```\n\n");
            } else if (s instanceof TableSection x) {
                for (int r = 0; r < x.rows().size(); r++) {
                    m.append('|');
                    for (String c : x.rows().get(r)) {
                        m.append(' ').append(c.replace("|", "\\|")).append(" |");
                    }
                    m.append('\n');
                    if (r == 0) {
                        m.append("|").append("---|".repeat(x.rows().get(0).length)).append('\n');
                    }
                }
                m.append('\n');
            } else if (s instanceof Image x) {
                m.append("![").append(x.caption()).append("](").append(x.file()).append(")\n\n");
            }
        }
        m.append("Raw numbers: `results.json`; the same report with plots: `index.html`.\n");
        return m.toString();
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
