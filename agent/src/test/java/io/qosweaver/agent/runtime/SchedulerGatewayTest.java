package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.scheduler.SchedulerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulerGatewayTest {

    @Test
    void theSchedulerGetsNamesAttributesAndParametersButNoPointcuts(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("p.yaml"), """
                taskClasses:
                  - name: collector
                    entry: execution(void a.b.Collector.collect())
                    importance: high
                  - name: chart
                    servletPath: /chart
                    importance: low
                controlPoints:
                  - call(* a.b.C.d(..))
                policy:
                  name: importance
                  lowLimit: 1
                """);
        SchedulerConfig cfg = SchedulerGateway.configOf(PolicyFile.load(file));
        assertThat(cfg.taskClasses()).extracting(t -> t.name()).containsExactly("collector", "chart");
        assertThat(cfg.taskClasses().get(0).attributes()).isEqualTo(Map.of("importance", "high"));
        assertThat(cfg.taskClasses().get(1).attributes()).isEqualTo(Map.of("importance", "low"));
        assertThat(cfg.policy().name()).isEqualTo("importance");
        assertThat(cfg.policy().parameters()).isEqualTo(Map.of("lowLimit", "1"));
    }

    @Test
    void theInstalledPolicysCompilerPriorityReachesTheAgentAndNoneOnceUninstalled() {
        SchedulerConfig none = new SchedulerConfig(java.util.List.of(),
                new SchedulerConfig.PolicySpec("importance", Map.of()));
        SchedulerConfig idle = new SchedulerConfig(java.util.List.of(),
                new SchedulerConfig.PolicySpec("importance", Map.of("compilerNice", "idle")));
        try {
            SchedulerGateway.install(none);
            assertThat(SchedulerGateway.compilerPriority()).isNull();
            SchedulerGateway.install(idle);
            assertThat(SchedulerGateway.compilerPriority()).isEqualTo(CompilerBoost.IDLE);
        } finally {
            SchedulerGateway.uninstall();
        }
        assertThat(SchedulerGateway.compilerPriority()).isNull();
    }
}
