package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.run.Layout;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tika's documents and requests; and, when {@code examples/third-party/tika/fetch.sh} has fetched the
 * server (CI does not), the real Tika server extracting the generated PDF's text.
 */
class TikaAppTest {
    @TempDir
    Path tmp;

    @Test
    void thePdfIsWellFormedAndTheSameEveryTime() {
        byte[] pdf = TikaApp.pdf(3, 5, 42);
        String s = new String(pdf, StandardCharsets.US_ASCII);
        assertThat(s).startsWith("%PDF-1.4\n").endsWith("%%EOF\n").contains("/Count 3 >>");
        // catalog, pages, font, then a page and a content stream per page: 9 objects, each where the table says
        Matcher xref = Pattern.compile("xref\n0 (\\d+)\n0000000000 65535 f \n((?:\\d{10} 00000 n \n)+)").matcher(s);
        assertThat(xref.find()).isTrue();
        assertThat(Integer.parseInt(xref.group(1))).isEqualTo(10);
        String[] entries = xref.group(2).split("\n");
        assertThat(entries).hasSize(9);
        for (int i = 0; i < entries.length; i++) {
            int offset = Integer.parseInt(entries[i].substring(0, 10));
            assertThat(s.substring(offset)).as("object %d", i + 1).startsWith((i + 1) + " 0 obj\n");
        }
        int startxref = Integer.parseInt(s.replaceAll("(?s).*startxref\n(\\d+)\n%%EOF\n$", "$1"));
        assertThat(s.substring(startxref)).startsWith("xref\n");
        // every stream's /Length is its length
        Matcher stream = Pattern.compile("<< /Length (\\d+) >>\nstream\n").matcher(s);
        int streams = 0;
        while (stream.find()) {
            int length = Integer.parseInt(stream.group(1));
            assertThat(s.substring(stream.end() + length)).startsWith("\nendstream");
            streams++;
        }
        assertThat(streams).isEqualTo(3);
        assertThat(s.split("\\) Tj T\\*\n", -1)).as("5 lines per page").hasSize(3 * 5 + 1);
        assertThat(TikaApp.pdf(3, 5, 42)).isEqualTo(pdf);
        assertThat(TikaApp.pdf(3, 5, 43)).isNotEqualTo(pdf);
        assertThatThrownBy(() -> TikaApp.pdf(0, 5, 1)).hasMessage("a PDF needs at least one page and one line, got 0 x 5");
    }

    @Test
    void prepareWritesBothDocumentsAndTheRequestsSendThem() throws Exception {
        TikaApp app = new TikaApp();
        app.prepare(Layout.find().root(), tmp);
        assertThat(Files.readAllBytes(tmp.resolve(app.heavyBody().file())))
                .isEqualTo(TikaApp.pdf(TikaApp.PAGES, TikaApp.LINES_PER_PAGE, 42));
        assertThat(Files.readString(tmp.resolve(app.lightBody().file()))).startsWith("<!DOCTYPE html>");
        URI base = URI.create("http://127.0.0.1:9998");
        assertThat(app.heavyTarget(base)).isEqualTo("http://127.0.0.1:9998/tika");
        assertThat(app.heavyBody()).isEqualTo(new MixedApp.RequestBody("PUT", "heavy.pdf", "application/pdf"));
        assertThat(app.lightTarget(base)).isEqualTo("http://127.0.0.1:9998/detect/stream");
        assertThat(app.lightBody().method()).isEqualTo("PUT");
        assertThat(app.heavyPath()).isEqualTo("/tika");
        assertThat(app.appArgs(9998)).containsExactly("-h", "127.0.0.1", "-p", "9998");
        assertThat(app.policy(false)).isEqualTo("examples/third-party/tika/policies/handwritten.yaml");
        assertThat(MixedApp.named("tika")).isInstanceOf(TikaApp.class);
        // the driver's arguments: the body's file in the run directory
        assertThat(new Mixed.Target(app.heavyTarget(base), app.heavyBody(), tmp).driverArgs()).containsExactly(
                "--target", "http://127.0.0.1:9998/tika", "--method", "PUT", "--body", tmp.resolve("heavy.pdf").toString(),
                "--content-type", "application/pdf");
        assertThat(new Mixed.Target("http://x/y", null, tmp).driverArgs()).containsExactly("--target", "http://x/y");
    }

    @Test
    void theCommittedPoliciesLoadAndSelectTheTwoPaths() throws Exception {
        Path root = Layout.find().root();
        for (String name : List.of("handwritten", "generated", "handwritten-at-entry", "handwritten-no-parking",
                "handwritten-grace")) {
            Path file = root.resolve("examples/third-party/tika/policies/" + name + ".yaml");
            // as the agent reads it: a file that would not load fails here, with its line
            io.qosweaver.model.policy.PolicyFile policy = io.qosweaver.model.policy.PolicyFile.load(file);
            assertThat(policy.taskClasses()).as(name).extracting(io.qosweaver.model.policy.PolicyFile.TaskClassDef::name)
                    .containsExactly("detect", "extract");
            assertThat(policy.controlPoints()).as(name).isNotEmpty();
            assertThat(Files.readString(file)).contains("request: {path: /detect/stream}")
                    .contains("request: {path: /tika}").contains("lowCap: 1x");
        }
        assertThat(new TikaApp().policy(true)).isEqualTo("examples/third-party/tika/policies/generated.yaml");
    }

    /** The real server, when fetched: it reads the generated PDF's text and detects the page's type. */
    @Test
    void theRealTikaServerExtractsTheGeneratedPdf() throws Exception {
        Path root = Layout.find().root();
        Path jar = root.resolve("examples/third-party/tika/lib/tika-server-" + TikaApp.VERSION + ".jar");
        assumeTrue(Files.isRegularFile(jar), "Tika server not fetched (examples/third-party/tika/fetch.sh)");
        TikaApp app = new TikaApp();
        app.prepare(root, tmp);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (AppProcess proc = AppProcess.start(List.of("-Xmx512m"), List.of("-jar", jar.toString()), app.appArgs(port),
                tmp.resolve("tika.log"), tmp)) {
            URI base = URI.create("http://127.0.0.1:" + port);
            proc.awaitHttp(URI.create(base + app.readyPath()), Duration.ofSeconds(120));
            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> text = client.send(HttpRequest.newBuilder(URI.create(app.heavyTarget(base)))
                    .header("Content-Type", app.heavyBody().contentType()).header("Accept", "text/plain")
                    .PUT(HttpRequest.BodyPublishers.ofFile(tmp.resolve(app.heavyBody().file()))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(text.statusCode()).isEqualTo(200);
            String pdf = new String(Files.readAllBytes(tmp.resolve(app.heavyBody().file())), StandardCharsets.US_ASCII);
            Matcher first = Pattern.compile("\\(([a-z ]+)\\) Tj T\\*").matcher(pdf);
            assertThat(first.find()).isTrue();
            String lastLine = null;
            while (first.find()) {
                lastLine = first.group(1);
            }
            assertThat(text.body()).contains(lastLine);
            // as the heavy driver sends it (no Accept header: XHTML) and checks it: every page in the answer
            HttpResponse<Integer> pages = client.send(HttpRequest.newBuilder(URI.create(app.heavyTarget(base)))
                    .header("Content-Type", app.heavyBody().contentType())
                    .PUT(HttpRequest.BodyPublishers.ofFile(tmp.resolve(app.heavyBody().file()))).build(),
                    app.heavyAnswer().handler());
            assertThat(pages.statusCode()).isEqualTo(200);
            assertThat(pages.body()).isEqualTo(TikaApp.PAGES);
            assertThat(app.heavyAnswer().failure(pages.body())).isNull();
            assertThat(app.heavyAnswer().failure(pages.body() - 1)).isEqualTo("answer: 99 of 100 '<div class=\"page\">'");
            HttpResponse<String> type = client.send(HttpRequest.newBuilder(URI.create(app.lightTarget(base)))
                    .header("Content-Type", app.lightBody().contentType())
                    .PUT(HttpRequest.BodyPublishers.ofFile(tmp.resolve(app.lightBody().file()))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(type.body()).isEqualTo("text/html");
        }
    }
}
