package io.qosweaver.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.testing.TestServer;
import io.qosweaver.bench.testing.TestServer.Reply;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A served answer is checked for what it must contain, as it streams in; one without is an error, not throughput. */
class AnswerCheckTest {
    static final String PAGE = "<div class=\"page\">";
    static TestServer server;

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer()
                .route("/whole", q -> Reply.ok(PAGE.repeat(3) + "end"))
                .route("/cut", q -> Reply.ok(PAGE.repeat(2)));
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    /** Counts {@code text} in {@code body} fed in random chunks. */
    private static int count(String text, String body, Random rnd) {
        AnswerCheck check = new AnswerCheck(text, 1);
        byte[] p = text.getBytes(StandardCharsets.UTF_8);
        AnswerCheck.Counter c = new AnswerCheck.Counter(p, AnswerCheck.failure(p));
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; ) {
            int n = Math.min(b.length - i, 1 + rnd.nextInt(7));
            c.scan(ByteBuffer.wrap(b, i, n));
            i += n;
        }
        assertThat(check.text()).isEqualTo(text);
        return c.found();
    }

    @Test
    void occurrencesAreCountedAcrossChunkBoundariesAndInsideEachOther() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            assertThat(count(PAGE, "x" + PAGE + "<div class=\"pag" + PAGE + "y" + PAGE, rnd)).isEqualTo(3);
            assertThat(count("aa", "aaaa", rnd)).isEqualTo(3);
            assertThat(count("abab", "ababab", rnd)).isEqualTo(2);
            assertThat(count("aab", "aaab", rnd)).isEqualTo(1);
            assertThat(count("é", "éaé", rnd)).isEqualTo(2);
            assertThat(count(PAGE, "", rnd)).isZero();
        }
    }

    @Test
    void aShortAnswerIsNamedAndAWholeOneIsNot() {
        AnswerCheck check = new AnswerCheck(PAGE, 100);
        assertThat(check.failure(100)).isNull();
        assertThat(check.failure(101)).isNull();
        assertThat(check.failure(99)).isEqualTo("answer: 99 of 100 '" + PAGE + "'");
        assertThatThrownBy(() -> new AnswerCheck("", 1)).hasMessageContaining("non-empty");
        assertThatThrownBy(() -> new AnswerCheck("x", 0)).hasMessageContaining("at least 1");
    }

    @Test
    void aServedAnswerWithoutEnoughIsAnErrorInBothLoops() throws Exception {
        AnswerCheck three = new AnswerCheck(PAGE, 3);
        LoadResult r = new LoadDriver().run(List.of(
                LoadSpec.closed("whole", 2, LoadSpec.Targets.fixed(server.uri("/whole"))).withAnswer(three),
                LoadSpec.closed("cut", 2, LoadSpec.Targets.fixed(server.uri("/cut"))).withAnswer(three),
                LoadSpec.open("cut-open", 50, 8, LoadSpec.Targets.fixed(server.uri("/cut"))).withAnswer(three),
                LoadSpec.closed("unchecked", 1, LoadSpec.Targets.fixed(server.uri("/cut")))),
                Duration.ZERO, Duration.ofMillis(800), false);
        assertThat(r.get("whole").requests()).isPositive();
        assertThat(r.get("whole").errors()).isZero();
        assertThat(r.get("cut").requests()).isZero();
        assertThat(r.get("cut").errorKinds()).containsOnlyKeys("answer: 2 of 3 '" + PAGE + "'");
        assertThat(r.get("cut-open").requests()).isZero();
        assertThat(r.get("cut-open").errorKinds()).containsOnlyKeys("answer: 2 of 3 '" + PAGE + "'");
        assertThat(r.get("unchecked").errors()).isZero();
        assertThat(r.get("unchecked").requests()).isPositive();
    }

    @Test
    void theSocketTransportRefusesAnAnswerCheckItWouldNotMake() {
        assertThatThrownBy(() -> LoadSpec.open("l", 10, 4, LoadSpec.Targets.fixed(server.uri("/whole")))
                .withTransport(LoadSpec.Transport.SOCKET).withAnswer(new AnswerCheck(PAGE, 1)))
                .hasMessageContaining("checks no answer");
    }
}
