package io.qosweaver.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bench's layering (README.md, "Layout"). */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.qosweaver.bench");
    static final List<String> EXPERIMENTS = List.of("deadline", "suspension", "lowcost", "pointcuts", "flashcrowd", "demo", "mixed",
            "deadlock", "adaptive", "swap", "racetest", "tracing");

    private static String[] experimentsBut(String except) {
        return EXPERIMENTS.stream().filter(e -> !e.equals(except)).map(e -> "io.qosweaver.bench." + e + "..")
                .toArray(String[]::new);
    }

    @Test
    void sharedPackagesKnowNoExperiment() {
        noClasses().that().resideInAnyPackage("io.qosweaver.bench.app..", "io.qosweaver.bench.load..",
                        "io.qosweaver.bench.report..", "io.qosweaver.bench.run..", "io.qosweaver.bench.stats..")
                .should().dependOnClassesThat().resideInAnyPackage(experimentsBut(""))
                .check(MAIN);
    }

    @Test
    void experimentsShareOnlyThroughSharedPackages() {
        for (String e : EXPERIMENTS) {
            noClasses().that().resideInAPackage("io.qosweaver.bench." + e + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(experimentsBut(e))
                    .check(MAIN);
        }
    }

    @Test
    void reportsDependOnResultsNotOnRunners() {
        for (String[] r : new String[][] {{"deadline", "Deadline"}, {"suspension", "Suspension"},
                {"lowcost", "LowCost"}, {"pointcuts", "Pointcuts"}, {"mixed", "Mixed"},
                {"deadlock", "Deadlock"}, {"adaptive", "Adaptive"}, {"swap", "Swap"},
                {"racetest", "RaceTest"}, {"tracing", "Tracing"}}) {
            noClasses().that().haveFullyQualifiedName("io.qosweaver.bench." + r[0] + "." + r[1] + "Report")
                    .should().dependOnClassesThat().haveFullyQualifiedName("io.qosweaver.bench." + r[0] + "." + r[1])
                    .because("a report renders results, which a run or a rerender from results.json provides")
                    .check(MAIN);
        }
    }

    @Test
    void theLeavesAreLeaves() {
        noClasses().that().resideInAPackage("io.qosweaver.bench.stats..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.bench.app..", "io.qosweaver.bench.load..",
                        "io.qosweaver.bench.report..", "io.qosweaver.bench.run..")
                .check(MAIN);
        noClasses().that().resideInAPackage("io.qosweaver.bench.load..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.bench.app..",
                        "io.qosweaver.bench.report..", "io.qosweaver.bench.run..")
                .check(MAIN);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.qosweaver.bench.(*)..").should().beFreeOfCycles().check(MAIN);
    }
}
