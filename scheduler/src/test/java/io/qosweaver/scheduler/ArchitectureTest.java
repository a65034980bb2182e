package io.qosweaver.scheduler;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The module's layering (README.md, "Packages"), enforced on the compiled main classes. */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.qosweaver.scheduler");

    private static final String[] JDK = {"java..", "javax.management..", "jdk.jfr.."};

    private static String[] jdkAnd(String... ours) {
        String[] all = new String[JDK.length + ours.length];
        System.arraycopy(JDK, 0, all, 0, JDK.length);
        System.arraycopy(ours, 0, all, JDK.length, ours.length);
        return all;
    }

    @Test
    void theSchedulerDependsOnNothingButTheJdkAndThePlatform() {
        classes().that().resideInAPackage("io.qosweaver.scheduler..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("io.qosweaver.scheduler..", "io.qosweaver.platform.."))
                .because("it goes on the bootstrap class path of the application's JVM")
                .check(MAIN);
    }

    @Test
    void policiesDependOnTheSpiOnly() {
        classes().that().resideInAPackage("..scheduler.policy..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("..scheduler.policy..",
                        "..scheduler.spi..", "..scheduler.stats..", "io.qosweaver.platform.."))
                .check(MAIN);
    }

    @Test
    void theSpiKnowsNoMechanismAndNoPolicy() {
        classes().that().resideInAPackage("..scheduler.spi..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("..scheduler.spi..",
                        "..scheduler.stats..", "io.qosweaver.platform.."))
                .check(MAIN);
    }

    @Test
    void theMechanismKnowsNoPolicyAndNoBridge() {
        classes().that().resideInAPackage("..scheduler.core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("..scheduler.core..",
                        "..scheduler.spi..", "..scheduler.event..", "..scheduler.stats..", "io.qosweaver.platform.."))
                .check(MAIN);
    }

    @Test
    void eventsAndStatsAreLeaves() {
        classes().that().resideInAPackage("..scheduler.event..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("..scheduler.event..", "..scheduler.stats.."))
                .check(MAIN);
        classes().that().resideInAPackage("..scheduler.stats..")
                .should().onlyDependOnClassesThat().resideInAnyPackage(jdkAnd("..scheduler.stats.."))
                .check(MAIN);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.qosweaver.scheduler.(*)..").should().beFreeOfCycles().check(MAIN);
    }
}
