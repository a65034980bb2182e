package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PeerArgsTest {

    @Test
    void jettyQosDefaults() {
        PeerArgs a = PeerArgs.parse("peer=jetty-qos");
        assertThat(a.peer()).isEqualTo("jetty-qos");
        assertThat(a.lowPath()).isEqualTo("/chart");
        assertThat(a.maxRequests()).as("not given: Jetty's default").isZero();
        assertThat(a.maxSuspendMs()).as("not given: Jetty's default").isEqualTo(-1);
    }

    @Test
    void jettyQosAll() {
        PeerArgs a = PeerArgs.parse(" peer=jetty-qos, lowPath=/levels ,maxRequests=8,maxSuspendMs=0,");
        assertThat(a.lowPath()).isEqualTo("/levels");
        assertThat(a.maxRequests()).isEqualTo(8);
        assertThat(a.maxSuspendMs()).isZero();
    }

    @Test
    void concurrencyLimitsDefaults() {
        PeerArgs a = PeerArgs.parse("peer=concurrency-limits");
        assertThat(a.peer()).isEqualTo("concurrency-limits");
        assertThat(a.lowPath()).isEqualTo("/chart");
        assertThat(a.lowShare()).isEqualTo(0.1);
        assertThat(a.limit()).isEqualTo("vegas");
        assertThat(a.limitText()).isEqualTo("vegas");
    }

    @Test
    void concurrencyLimitsAll() {
        PeerArgs a = PeerArgs.parse("lowShare=0.25,limit=fixed:12,peer=concurrency-limits,lowPath=/a/b");
        assertThat(a.lowShare()).isEqualTo(0.25);
        assertThat(a.limit()).isEqualTo("fixed");
        assertThat(a.fixedLimit()).isEqualTo(12);
        assertThat(a.limitText()).isEqualTo("fixed:12");
        assertThat(a.lowPath()).isEqualTo("/a/b");
        assertThat(PeerArgs.parse("peer=concurrency-limits,limit=Gradient2").limit()).isEqualTo("gradient2");
        assertThat(PeerArgs.parse("peer=concurrency-limits,lowShare=0").lowShare()).isZero();
        assertThat(PeerArgs.parse("peer=concurrency-limits,lowShare=1").lowShare()).isEqualTo(1.0);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''|no arguments: peer= is required",
            "'  '|no arguments: peer= is required",
            "lowPath=/chart|peer= is required (jetty-qos or concurrency-limits)",
            "peer|expected key=value, got 'peer'",
            "peer=jetty-qos,=3|expected key=value, got '=3'",
            "peer=nginx|unknown peer 'nginx' (expected jetty-qos or concurrency-limits)",
            "peer=jetty-qos,maxRequest=3|unknown key 'maxRequest' (keys: peer, lowPath, maxRequests, maxSuspendMs,"
                    + " lowShare, limit, anyContext, switchFile)",
            "peer=jetty-qos,peer=jetty-qos|key 'peer' given twice",
            "peer=jetty-qos,maxRequests=ten|maxRequests: not a whole number: 'ten'",
            "peer=jetty-qos,maxRequests=0|maxRequests must be between 1 and 2147483647, got 0",
            "peer=jetty-qos,maxRequests=99999999999|maxRequests must be between 1 and 2147483647, got 99999999999",
            "peer=jetty-qos,maxSuspendMs=1.5|maxSuspendMs: not a whole number: '1.5'",
            "peer=jetty-qos,maxSuspendMs=-1|maxSuspendMs must be between 0 and 9223372036854, got -1",
            "peer=jetty-qos,lowPath=chart|lowPath must be a servlet path like /chart, got 'chart'",
            "peer=jetty-qos,lowPath=/|lowPath must be a servlet path like /chart, got '/'",
            "peer=jetty-qos,lowPath=/chart/*|lowPath must be a servlet path like /chart, got '/chart/*'",
            "peer=jetty-qos,lowPath=/chart/|lowPath must be a servlet path like /chart, got '/chart/'",
            "peer=jetty-qos,lowShare=0.2|key 'lowShare' does not apply to peer=jetty-qos",
            "peer=jetty-qos,limit=vegas|key 'limit' does not apply to peer=jetty-qos",
            "peer=concurrency-limits,maxRequests=2|key 'maxRequests' does not apply to peer=concurrency-limits",
            "peer=concurrency-limits,maxSuspendMs=2|key 'maxSuspendMs' does not apply to peer=concurrency-limits",
            "peer=concurrency-limits,lowShare=a tenth|lowShare: not a number: 'a tenth'",
            "peer=concurrency-limits,lowShare=1.5|lowShare must be between 0 and 1, got '1.5'",
            "peer=concurrency-limits,lowShare=-0.1|lowShare must be between 0 and 1, got '-0.1'",
            "peer=concurrency-limits,lowShare=NaN|lowShare must be between 0 and 1, got 'NaN'",
            "peer=concurrency-limits,limit=aimd|limit: expected vegas, gradient2 or fixed:N, got 'aimd'",
            "peer=concurrency-limits,limit=fixed|limit: expected vegas, gradient2 or fixed:N, got 'fixed'",
            "peer=concurrency-limits,limit=fixed:x|limit=fixed:N: not a whole number: 'x'",
            "peer=concurrency-limits,limit=fixed:0|limit=fixed:N must be between 1 and 1000000, got 0",
            "peer=jetty-qos,anyContext=yes|anyContext: expected true or false, got 'yes'",
            "peer=jetty-qos,switchFile=switch|switchFile must be an absolute file path, got 'switch'",
            "peer=concurrency-limits,switchFile=/|switchFile must be an absolute file path, got '/'",
    })
    void errorsNameTheProblem(String args, String message) {
        assertThatThrownBy(() -> PeerArgs.parse(args)).isInstanceOf(PeerArgs.Invalid.class).hasMessage(message);
    }

    @Test
    void anyContextIsOffUnlessAskedFor() {
        assertThat(PeerArgs.parse("peer=jetty-qos").anyContext()).isFalse();
        assertThat(PeerArgs.parse("peer=jetty-qos,anyContext=true").anyContext()).isTrue();
        assertThat(PeerArgs.parse("peer=concurrency-limits,anyContext=true").anyContext()).isTrue();
        assertThat(PeerArgs.parse("peer=concurrency-limits,anyContext=false").anyContext()).isFalse();
    }

    @Test
    void aSwitchFileIsOptionalForEitherPeer() {
        assertThat(PeerArgs.parse("peer=jetty-qos").switchFile()).isNull();
        assertThat(PeerArgs.parse("peer=jetty-qos,switchFile=/tmp/s").switchFile()).hasToString("/tmp/s");
        assertThat(PeerArgs.parse("peer=concurrency-limits,switchFile=/tmp/s").switchFile()).hasToString("/tmp/s");
    }

    @Test
    void nullIsNoArguments() {
        assertThatThrownBy(() -> PeerArgs.parse(null)).hasMessage("no arguments: peer= is required");
    }

    @Test
    void usageShowsBothPeers() {
        assertThat(PeerArgs.USAGE).contains("peer=jetty-qos[,lowPath=/chart][,maxRequests=N][,maxSuspendMs=N]")
                .contains("peer=concurrency-limits[,lowPath=/chart][,lowShare=0.1][,limit=vegas|gradient2|fixed:N]");
    }

    @Test
    void isUnderMatchesWholeSegments() {
        assertThat(PeerArgs.isUnder("/chart", "/chart")).isTrue();
        assertThat(PeerArgs.isUnder("/chart/x", "/chart")).isTrue();
        assertThat(PeerArgs.isUnder("/charts", "/chart")).isFalse();
        assertThat(PeerArgs.isUnder("/fast", "/chart")).isFalse();
        assertThat(PeerArgs.isUnder(null, "/chart")).isFalse();
    }
}
