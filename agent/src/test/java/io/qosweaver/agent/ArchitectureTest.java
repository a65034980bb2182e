package io.qosweaver.agent;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The agent's layering (README.md, "Packages, and what may depend on what"). */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.qosweaver.agent");

    @Test
    void bootstrapHelpersDependOnTheJdkTheBridgeAndTheTracersEntryOnly() {
        classes().that().resideInAPackage("io.qosweaver.agent.bootstrap..")
                .should().onlyDependOnClassesThat(
                        com.tngtech.archunit.base.DescribedPredicate.describe("the JDK, QoS or the tracer's entry points",
                                c -> c.getPackageName().startsWith("java.")
                                        || c.getPackageName().equals("javax.net.ssl")
                                        || c.getPackageName().startsWith("io.qosweaver.agent.bootstrap")
                                        || c.getName().equals("io.qosweaver.scheduler.QoS")
                                        || c.getName().equals("io.qosweaver.trace.app.AppTrace")
                                        || c.getName().equals("io.qosweaver.trace.app.ServerTrace")))
                .because("they are appended to the bootstrap class path, where nothing else is")
                .check(MAIN);
    }

    @Test
    void unitsNeverReachTheRuntimeTheControlPlaneOrTheProfilingMode() {
        noClasses().that().resideInAPackage("io.qosweaver.agent.unit..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.agent.runtime..",
                        "io.qosweaver.agent.control..", "io.qosweaver.agent.profiling..", "io.qosweaver.agent.startup..")
                .check(MAIN);
    }

    @Test
    void weavingKnowsNoUnit() {
        noClasses().that().resideInAPackage("io.qosweaver.agent.weaving..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.agent.unit..",
                        "io.qosweaver.agent.runtime..", "io.qosweaver.agent.profiling..", "io.qosweaver.agent.control..")
                .check(MAIN);
    }

    @Test
    void theControlPlaneKnowsNeitherTheSchedulerNorTheProfiler() {
        noClasses().that().resideInAPackage("io.qosweaver.agent.control..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.scheduler..", "io.qosweaver.agent.runtime..",
                        "io.qosweaver.agent.profiling..", "io.qosweaver.agent.weaving..")
                .check(MAIN);
    }

    @Test
    void onlyTheGatewayUsesTheSchedulersManagementApi() {
        noClasses().that().resideOutsideOfPackages("io.qosweaver.agent.runtime..", "io.qosweaver.agent.natives..")
                .and().resideOutsideOfPackage("io.qosweaver.agent.bootstrap..")
                .and().resideOutsideOfPackage("io.qosweaver.agent.unit..")
                .should().dependOnClassesThat().resideInAPackage("io.qosweaver.scheduler..")
                .check(MAIN);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.qosweaver.agent.(**)").should().beFreeOfCycles().check(MAIN);
    }
}
