package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CollectionsParserTest {

    @Test
    void readsTheObjectFormOfTheRiverMonitor() throws Exception {
        String body = "{\"period_ms\":15000,\"rivers\":100,\"count\":2,\"missed\":1,\"collections\":["
                + "{\"start_ms\":2000,\"duration_ms\":16000,\"readings\":100,\"errors\":0,\"stored\":true,"
                + "\"missed_deadline\":true,\"period_ms\":15000,\"late_ms\":240},"
                + "{\"start_ms\":1000,\"duration_ms\":812,\"readings\":100,\"errors\":0,\"stored\":true,"
                + "\"missed_deadline\":false,\"period_ms\":15000}]}";
        List<CollectionRecord> rs = CollectionsParser.parse(body);
        assertThat(rs).extracting(CollectionRecord::startMs).containsExactly(1000L, 2000L);
        assertThat(rs.get(0)).isEqualTo(new CollectionRecord(1000, 812L, 100, false, 15000L));
        assertThat(rs.get(1).missed(15000)).isTrue();
        assertThat(rs.get(1).lateMs()).isEqualTo(240L); // how late after its slot it started
        assertThat(rs.get(0).lateMs()).isNull(); // not reported
    }

    @Test
    void readsABareArrayAndCamelCase() throws Exception {
        List<CollectionRecord> rs = CollectionsParser.parse(
                "[{\"startMs\":5,\"durationMs\":7,\"missedDeadline\":false},{\"start_ms\":9}]");
        assertThat(rs).hasSize(2);
        assertThat(rs.get(0).durationMs()).isEqualTo(7L);
        assertThat(rs.get(0).readings()).isNull();
        assertThat(rs.get(1).finished()).isFalse();
    }

    @Test
    void withoutAFlagAMissIsADurationLongerThanThePeriod() throws Exception {
        List<CollectionRecord> rs = CollectionsParser.parse(
                "[{\"start_ms\":1,\"duration_ms\":1500},{\"start_ms\":2,\"duration_ms\":900},"
                        + "{\"start_ms\":3,\"duration_ms\":900,\"period_ms\":500}]");
        assertThat(rs.get(0).missed(1000)).isTrue();
        assertThat(rs.get(1).missed(1000)).isFalse();
        assertThat(rs.get(2).missed(1000)).isTrue();
    }

    @Test
    void skipsRecordsWithoutAStartAndOddShapes() throws Exception {
        assertThat(CollectionsParser.parse("[{\"duration_ms\":3},{\"start_ms\":\"12\"}]"))
                .extracting(CollectionRecord::startMs).containsExactly(12L);
        assertThat(CollectionsParser.parse("{\"something\":[]}")).isEmpty();
        assertThat(CollectionsParser.parse("{\"collections\":[]}")).isEmpty();
    }
}
