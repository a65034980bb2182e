package io.qosweaver.simulator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Reports depend on results only; the simulator runs the scheduler's own mechanism and policies. */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.qosweaver.simulator");

    @Test
    void reportsDependOnStatisticsOnly() {
        classes().that().resideInAPackage("..simulator.report..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "..simulator.report..", "..simulator.stats..")
                .check(MAIN);
        classes().that().resideInAPackage("..simulator.stats..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "..simulator.stats..")
                .check(MAIN);
    }

    @Test
    void theSimulatorNeverReachesIntoABuiltInPolicy() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.qosweaver.scheduler.policy..")
                .because("versions come from the registry; no policy is special-cased by name")
                .check(MAIN);
    }
}
