package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.pointcuts.fixtures.Locked;
import java.io.StringReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SynchronizedRegionsTest {
    private static final String L = "io.qosweaver.pointcuts.fixtures.Locked";
    private static final String ADD = "boolean java.util.List.add(java.lang.Object)";

    private final ClassFileSynchronizedRegions regions = ClassFileSynchronizedRegions.fromClassLoader(Locked.class.getClassLoader());

    @Test
    void aSynchronizedMethodHoldsItsMonitorForEveryCall() {
        assertThat(regions.holdsMonitor("void " + L + ".lockedMethod(java.util.List)", ADD)).isTrue();
    }

    @Test
    void callsInsideASynchronizedBlockHoldIt_callsOutsideDoNot() {
        String caller = "void " + L + ".lockedBlock(java.util.List, int[])";
        assertThat(regions.holdsMonitor(caller, "int " + L + ".helper(int)")).isTrue();
        assertThat(regions.holdsMonitor(caller, "int java.lang.Math.abs(int)")).isTrue();
        assertThat(regions.holdsMonitor(caller, ADD)).isFalse();
        assertThat(regions.holdsMonitor(caller, "int java.util.List.size()")).isFalse();
    }

    @Test
    void nestedBlocksAndTheCodeAfterThem() {
        String caller = "void " + L + ".nested(java.util.List)";
        assertThat(regions.holdsMonitor(caller, "void java.util.List.clear()")).isTrue();
        assertThat(regions.holdsMonitor(caller, "boolean java.util.List.isEmpty()")).isTrue();
        assertThat(regions.holdsMonitor(caller, "int java.util.List.hashCode()")).isFalse();
        // The callee's declaring type does not matter: the profile may name the receiver's class.
        assertThat(regions.holdsMonitor(caller, "void java.util.ArrayList.clear()")).isTrue();
    }

    @Test
    void nestedClassesAndMissingClasses() {
        assertThat(regions.holdsMonitor("java.lang.String[] " + L + "$Inner.names(" + L + ")",
                "void " + L + ".nested(java.util.List)")).isFalse();
        assertThat(regions.holdsMonitor("void no.such.Type.run()", "void no.such.Type.x()")).isFalse();
        assertThat(regions.missingClasses()).containsExactly("no.such.Type");
    }

    @Test
    void theGeneratorExcludesThemFromRealClassFiles() throws Exception {
        String text = "0 void " + L + ".lockedBlock(java.util.List, int[]) int " + L + ".helper(int)\n"
                + "1 void " + L + ".lockedBlock(java.util.List, int[]) int java.util.List.size()\n"
                + "2 void " + L + ".lockedMethod(java.util.List) " + ADD + "\n";
        Profile.Builder b = Profile.builder();
        TextProfileReader.read("t", new StringReader(text), b);
        Path classes = Path.of(Locked.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(1), 1)
                .withSynchronizedRegions(ClassFileSynchronizedRegions.fromClassPath(List.of(classes)))).generate(b.build());
        assertThat(r.excludedSynchronized()).isEqualTo(2);
        assertThat(r.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee).containsExactly("int java.util.List.size()");
    }
}
