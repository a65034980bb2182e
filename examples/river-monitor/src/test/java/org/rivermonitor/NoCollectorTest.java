package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code --no-collector}: the pages are served from the seeded history and nothing is collected. */
class NoCollectorTest {

    @Test
    void servesChartsAndNeverCollects() throws Exception {
        Options o = Http.options("--rivers", "2", "--history-hours", "0.5", "--period", "0.2", "--no-collector",
                "--jdbc-url", Http.h2Url());
        try (RiverMonitor app = RiverMonitor.start(o)) {
            Http.Response chart = Http.get(app.url() + "/chart?river=1&hours=3");
            assertThat(chart.status()).isEqualTo(200);
            assertThat(Http.isPng(chart.body())).isTrue();
            Thread.sleep(1_000); // five periods
            String status = new String(Http.get(app.url() + "/status/collections").body(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertThat(status).contains("\"collections\":[]");
        }
    }
}
