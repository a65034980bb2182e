package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.AnswerCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Apache Tika server ({@code org.apache.tika:tika-server}, the runnable jar), a content-extraction service:
 * Apache CXF's JAX-RS on CXF's Jetty transport, whose {@code JettyHTTPHandler} is a Jetty 9.4 core handler,
 * so no request passes through a servlet.
 *
 * <p>The heavy request is a PUT of a {@link #PAGES}-page PDF to {@code /tika} (the text of every page, by
 * PDFBox); the light one a PUT of a small HTML page to {@code /detect/stream} (its media type, from its first
 * bytes). Both documents are ours, generated with a fixed seed by {@link #prepare}, and sent from memory.
 */
public final class TikaApp implements MixedApp {
    public static final String NAME = "tika";
    static final String VERSION = "1.28.5";
    static final int PAGES = 100;
    static final int LINES_PER_PAGE = 60;
    static final String HEAVY_FILE = "heavy.pdf";
    static final String LIGHT_FILE = "light.html";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Apache Tika server " + VERSION + " (tika-server, CXF JAX-RS on CXF's Jetty 9.4 transport, a core "
                + "handler, no servlet): heavy = PUT of a " + PAGES + "-page PDF to /tika (its text), light = PUT of a "
                + "small HTML page to /detect/stream (its media type)";
    }

    @Override
    public void prepare(Path projectRoot, Path runDir) throws IOException {
        Files.createDirectories(runDir);
        Files.write(runDir.resolve(HEAVY_FILE), pdf(PAGES, LINES_PER_PAGE, 42));
        Files.writeString(runDir.resolve(LIGHT_FILE), html(), StandardCharsets.UTF_8);
    }

    /**
     * A PDF of {@code pages} pages, {@code lines} lines of words each, in the standard Helvetica font: the
     * catalog, the page tree, one font, a page and a content stream per page, and a cross-reference table
     * with every object's byte offset. The same bytes for the same arguments.
     */
    static byte[] pdf(int pages, int lines, long seed) {
        if (pages < 1 || lines < 1) {
            throw new IllegalArgumentException("a PDF needs at least one page and one line, got " + pages + " x " + lines);
        }
        SplittableRandom random = new SplittableRandom(seed);
        List<String> objects = new ArrayList<>();
        StringBuilder kids = new StringBuilder();
        for (int p = 0; p < pages; p++) {
            kids.append(4 + 2 * p).append(" 0 R ");
        }
        objects.add("<< /Type /Catalog /Pages 2 0 R >>");
        objects.add("<< /Type /Pages /Kids [" + kids.toString().strip() + "] /Count " + pages + " >>");
        objects.add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
        for (int p = 0; p < pages; p++) {
            StringBuilder text = new StringBuilder("BT /F1 10 Tf 12 TL 50 760 Td\n");
            for (int l = 0; l < lines; l++) {
                text.append('(').append(line(random, 90)).append(") Tj T*\n");
            }
            text.append("ET");
            objects.add("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
                    + "/Contents " + (5 + 2 * p) + " 0 R >>");
            objects.add("<< /Length " + text.length() + " >>\nstream\n" + text + "\nendstream");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        ascii(out, "%PDF-1.4\n");
        for (int i = 0; i < objects.size(); i++) {
            offsets.add(out.size());
            ascii(out, (i + 1) + " 0 obj\n" + objects.get(i) + "\nendobj\n");
        }
        int xref = out.size();
        StringBuilder x = new StringBuilder("xref\n0 " + (objects.size() + 1) + "\n0000000000 65535 f \n");
        for (int off : offsets) {
            x.append(String.format("%010d 00000 n \n", off)); // each entry exactly 20 bytes
        }
        x.append("trailer\n<< /Size ").append(objects.size() + 1).append(" /Root 1 0 R >>\nstartxref\n").append(xref)
                .append("\n%%EOF\n");
        ascii(out, x.toString());
        return out.toByteArray();
    }

    /** Words of lower-case letters up to about {@code chars} characters: nothing a PDF string must escape. */
    private static String line(SplittableRandom random, int chars) {
        StringBuilder b = new StringBuilder();
        while (b.length() < chars) {
            if (b.length() > 0) {
                b.append(' ');
            }
            int n = 2 + random.nextInt(9);
            for (int i = 0; i < n; i++) {
                b.append((char) ('a' + random.nextInt(26)));
            }
        }
        return b.toString();
    }

    private static void ascii(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.US_ASCII));
    }

    /** A small HTML page, about 2 KB. */
    static String html() {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html><head><title>status</title></head><body>\n");
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 20; i++) {
            b.append("<p>").append(line(random, 80)).append("</p>\n");
        }
        return b.append("</body></html>\n").toString();
    }

    @Override
    public List<String> jvmFlags() {
        // one line per GC pause in the app's log, to tell a collector's pause from a scheduling delay
        return List.of("-Xmx2g", GcPauses.XLOG);
    }

    @Override
    public List<String> appArgs(int port) {
        // in-process (1.x forks no child unless -spawnChild); request URIs not logged
        return List.of("-h", "127.0.0.1", "-p", Integer.toString(port));
    }

    @Override
    public String readyPath() {
        return "/version";
    }

    @Override
    public String heavyPath() {
        return "/tika";
    }

    @Override
    public String heavyTarget(URI base) {
        return base + heavyPath();
    }

    @Override
    public RequestBody heavyBody() {
        return new RequestBody("PUT", HEAVY_FILE, "application/pdf");
    }

    /**
     * Every page of the document in the answer: Tika streams its XHTML as it parses and has sent 200 before a
     * failure (1.28.5 on JDK 25 fails at the last page and answers 99 of 100), so its status says too little.
     */
    @Override
    public AnswerCheck heavyAnswer() {
        return new AnswerCheck(PAGE_MARK, PAGES);
    }

    /** How Tika's XHTML opens a page (text/xml, its answer to a request without an Accept header). */
    static final String PAGE_MARK = "<div class=\"page\">";

    @Override
    public String lightTarget(URI base) {
        return base + "/detect/stream";
    }

    @Override
    public RequestBody lightBody() {
        return new RequestBody("PUT", LIGHT_FILE, "application/octet-stream");
    }

    @Override
    public int lightIds() {
        return 1;
    }

    @Override
    public String jettyQoSUnavailable() {
        return "Tika server runs on Jetty 9.4, and Jetty's QoSHandler exists only from Jetty 12 on; Jetty 9.4's "
                + "QoSFilter is a servlet filter, and Tika's requests pass no servlet context";
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("artifact", "org.apache.tika:tika-server:" + VERSION);
        m.put("server", "Jetty 9.4.48 with Apache CXF 3.5.3's Jetty transport, embedded in the jar");
        m.put("routing", "CXF's JettyHTTPHandler, a Jetty core handler (AbstractHandler) in a ContextHandler, runs the "
                + "JAX-RS resources; no servlet");
        m.put("heavy_request", "PUT /tika, Content-Type application/pdf: a " + PAGES + "-page PDF of " + LINES_PER_PAGE
                + " lines of random words per page (seed 42), its text in the answer");
        m.put("light_request", "PUT /detect/stream: a 2 KB HTML page sent as application/octet-stream, its media type "
                + "(text/html) in the answer");
        m.put("jvm_flags", jvmFlags());
        return m;
    }
}
