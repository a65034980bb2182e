package io.qosweaver.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The policy model's layering (README.md): signature, then pointcut, then policy; SnakeYAML in policy only. */
class ArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.qosweaver.model");

    @Test
    void theModelDependsOnTheJdkAndSnakeYamlOnly() {
        classes().should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.qosweaver.model..",
                "org.yaml.snakeyaml..").check(MAIN);
    }

    @Test
    void signaturesKnowNoPointcutAndNoPolicy() {
        noClasses().that().resideInAPackage("io.qosweaver.model.signature..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.model.pointcut..",
                        "io.qosweaver.model.policy..", "org.yaml..")
                .check(MAIN);
    }

    @Test
    void thePointcutLanguageKnowsNoPolicyFileAndNoYaml() {
        noClasses().that().resideInAPackage("io.qosweaver.model.pointcut..")
                .should().dependOnClassesThat().resideInAnyPackage("io.qosweaver.model.policy..", "org.yaml..")
                .check(MAIN);
    }

    @Test
    void noCyclesBetweenPackages() {
        slices().matching("io.qosweaver.model.(**)").should().beFreeOfCycles().check(MAIN);
    }
}
