package io.qosweaver.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportsTest {

    @Test
    void aReportThatCannotBeDrawnSaysSoInOneLineAndNeverThrows() {
        List<String> lines = new ArrayList<>();
        boolean drawn = Reports.draw(Path.of("target/r"), lines::add, () -> {
            throw new UnsatisfiedLinkError("libfontmanager.so: libfreetype.so.6: cannot open shared object file");
        });
        assertThat(drawn).isFalse();
        assertThat(lines).singleElement().asString().startsWith("[report] could not draw the report in target/r")
                .contains("libfreetype.so.6").contains("results.json is complete");
        assertThat(Reports.draw(Path.of("x"), lines::add, () -> { })).isTrue();
        assertThat(lines).hasSize(1);
    }
}
