package io.qosweaver.model.signature;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SignaturesTest {

    @Test
    void signaturesFromDescriptors() {
        assertThat(Signatures.fromDescriptor("a/b/Outer$Inner", "f", "(I[[Ljava/lang/String;J)[Z"))
                .isEqualTo("boolean[] a.b.Outer$Inner.f(int, java.lang.String[][], long)");
        assertThat(Signatures.fromDescriptor("a/B", "<init>", "()V")).isEqualTo("void a.B.<init>()");
        assertThat(Signatures.withoutDeclaringType("void a.b.C.f(int)")).isEqualTo("void f(int)");
        assertThat(Signatures.declaringType("void a.b.C$D.f(int)")).isEqualTo("a.b.C$D");
        assertThat(Signatures.isInitializer("void a.B.<clinit>()")).isTrue();
        assertThat(Signatures.isInitializer("void a.B.init()")).isFalse();
    }

    @Test
    void descriptorsDecodeEveryKindOfType() {
        assertThat(Descriptors.parameterTypes("(ZBCSIJFD[I[[Ljava/util/Map$Entry;)V")).containsExactly(
                "boolean", "byte", "char", "short", "int", "long", "float", "double", "int[]", "java.util.Map$Entry[][]");
        assertThat(Descriptors.parameterTypes("()Ljava/lang/String;")).isEmpty();
        assertThat(Descriptors.returnType("()Ljava/lang/String;")).isEqualTo("java.lang.String");
        assertThat(Descriptors.returnType("(I)[J")).isEqualTo("long[]");
        assertThat(Descriptors.toName("[[D")).isEqualTo("double[][]");
    }

    @Test
    void aMalformedDescriptorIsNamedNotMisread() {
        for (String bad : new String[] {"", "I)V", "(I", "(I)", "(Ljava/lang/String)V", "(Q)V", "(I)VV", "([)V"}) {
            assertThatThrownBy(() -> Signatures.fromDescriptor("a/B", "f", bad))
                    .as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("not a bytecode descriptor");
        }
        assertThatThrownBy(() -> Descriptors.toName("Lx")).hasMessageContaining("'Lx'");
        assertThatThrownBy(() -> Descriptors.toName("II")).hasMessageContaining("'II'");
    }

    @Test
    void canonicalFormIgnoresWhiteSpaceAndRejectsWhatIsNotASignature() {
        assertThat(Signatures.canonicalize("  int[]   a.B.f( int ,java.lang.String[] )"))
                .isEqualTo("int[] a.B.f(int, java.lang.String[])");
        assertThatThrownBy(() -> Signatures.canonicalize("a.B.f()")).hasMessageContaining("missing return type");
        assertThatThrownBy(() -> Signatures.canonicalize("void f()")).hasMessageContaining("qualified");
        assertThatThrownBy(() -> Signatures.canonicalize("void a.B.f(void)")).hasMessageContaining("'void' is only");
    }
}
