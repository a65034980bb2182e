package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void defaults() {
        Options o = Options.parse();
        assertThat(o.host).isEqualTo("127.0.0.1");
        assertThat(o.port).isEqualTo(8080);
        assertThat(o.generatorPort).isEqualTo(8081);
        assertThat(o.period).isEqualTo(Duration.ofSeconds(15));
        assertThat(o.rivers).isEqualTo(100);
        assertThat(o.historyHours).isEqualTo(24);
        assertThat(o.jdbcUrl).startsWith("jdbc:h2:mem:");
        assertThat(o.generatorUrl).isNull();
        assertThat(o.generatorOnly).isFalse();
        assertThat(o.noCollector).isFalse();
        assertThat(o.help).isFalse();
    }

    @Test
    void allOptions() {
        Options o = Options.parse("--host", "0.0.0.0", "--port", "0", "--generator-port=9001", "--period", "2.5",
                "--rivers", "7", "--seed", "3", "--jdbc-url", "jdbc:postgresql://h/db", "--jdbc-user", "u",
                "--jdbc-password", "p", "--db-pool-size", "4", "--history-hours", "1.5",
                "--generator-url", "http://gen:1/");
        assertThat(o.host).isEqualTo("0.0.0.0");
        assertThat(o.port).isZero();
        assertThat(o.generatorPort).isEqualTo(9001);
        assertThat(o.period).isEqualTo(Duration.ofMillis(2500));
        assertThat(o.rivers).isEqualTo(7);
        assertThat(o.seed).isEqualTo(3);
        assertThat(o.jdbcUrl).isEqualTo("jdbc:postgresql://h/db");
        assertThat(o.jdbcUser).isEqualTo("u");
        assertThat(o.jdbcPassword).isEqualTo("p");
        assertThat(o.dbPoolSize).isEqualTo(4);
        assertThat(o.historyHours).isEqualTo(1.5);
        assertThat(o.generatorUrl).isEqualTo("http://gen:1");
    }

    @Test
    void periodFormats() {
        assertThat(Options.parseDuration("15")).isEqualTo(Duration.ofSeconds(15));
        assertThat(Options.parseDuration("2.5")).isEqualTo(Duration.ofMillis(2500));
        assertThat(Options.parseDuration("2.5s")).isEqualTo(Duration.ofMillis(2500));
        assertThat(Options.parseDuration("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Options.parseDuration("1m")).isEqualTo(Duration.ofMinutes(1));
        assertThat(Options.parseDuration("0.5")).isEqualTo(Duration.ofMillis(500));
        assertThatThrownBy(() -> Options.parseDuration("abc")).hasMessageContaining("--period");
        assertThatThrownBy(() -> Options.parseDuration("0")).hasMessageContaining("at least");
        assertThatThrownBy(() -> Options.parseDuration("-3")).hasMessageContaining("at least");
    }

    @Test
    void badCommandLines() {
        assertThatThrownBy(() -> Options.parse("--nope")).isInstanceOf(Options.UsageException.class)
                .hasMessageContaining("unknown option --nope");
        assertThatThrownBy(() -> Options.parse("--port")).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> Options.parse("--port", "70000")).hasMessageContaining("between 0 and 65535");
        assertThatThrownBy(() -> Options.parse("--rivers", "x")).hasMessageContaining("not an integer");
        assertThatThrownBy(() -> Options.parse("--rivers", "0")).hasMessageContaining("--rivers");
        assertThatThrownBy(() -> Options.parse("--history-hours", "-1")).hasMessageContaining("--history-hours");
        assertThat(Options.parse("--no-collector").noCollector).isTrue();
        assertThatThrownBy(() -> Options.parse("--generator-only", "--no-collector"))
                .hasMessageContaining("--generator-only and --no-collector exclude each other");
        assertThatThrownBy(() -> Options.parse("--generator-only", "--generator-url", "http://x"))
                .hasMessageContaining("exclude");
    }

    @Test
    void helpListsEveryOption() throws Exception {
        assertThat(Options.parse("--help").help).isTrue();
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            Main.main(new String[] {"--help"});
        } finally {
            System.setOut(saved);
        }
        String help = buf.toString(StandardCharsets.UTF_8);
        for (String opt : List.of("--host", "--port", "--generator-port", "--generator-url", "--generator-only",
                "--no-collector", "--period", "--rivers", "--seed", "--jdbc-url", "--jdbc-user", "--jdbc-password", "--db-pool-size",
                "--history-hours", "--help")) {
            assertThat(help).contains(opt);
        }
    }

    /** The real entry point in its own JVM: the start-up line is printed and parseable, the pages serve. */
    @Test
    void mainPrintsListeningLine() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "org.rivermonitor.Main",
                "--port", "0", "--generator-port", "0", "--rivers", "3", "--history-hours", "0.2", "--period", "1")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            p.getOutputStream().close();
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).isNotNull();
            Matcher m = Pattern.compile("^river-monitor listening on (http://127\\.0\\.0\\.1:(\\d+)) \\(generator (http://127\\.0\\.0\\.1:(\\d+))\\)$")
                    .matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            assertThat(Http.get(m.group(1) + "/levels").status()).isEqualTo(200);
            assertThat(Http.get(m.group(3) + "/sensors/1/level").status()).isEqualTo(200);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void generatorOnlyPrintsItsUrl() throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        Process p = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                "org.rivermonitor.Main", "--generator-only", "--generator-port", "0", "--rivers", "2")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            Matcher m = Pattern.compile("^river-monitor generator listening on (http://127\\.0\\.0\\.1:\\d+)$").matcher(line);
            assertThat(m.matches()).as(line).isTrue();
            assertThat(Http.get(m.group(1) + "/sensors/2/level").text()).contains("\"level_m\"");
            assertThat(Http.get(m.group(1) + "/sensors/3/level").status()).isEqualTo(404);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }
}
