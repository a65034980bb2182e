package io.qosweaver.agent.unit.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.testtargets.reflect.NotAServlet;
import java.net.URL;
import java.net.URLClassLoader;
import net.bytebuddy.description.type.TypeDescription;
import org.junit.jupiter.api.Test;

class ServletUnitTest {

    /** Defines the test targets itself, so that what it has loaded can be asked. */
    static final class Isolated extends URLClassLoader {
        Isolated() {
            super(new URL[] {NotAServlet.class.getProtectionDomain().getCodeSource().getLocation()},
                    ClassLoader.getPlatformClassLoader());
        }

        boolean hasLoaded(String name) {
            return findLoadedClass(name) != null;
        }
    }

    @Test
    void aLoadedClassThatIsNoServletIsRejectedWithoutLoadingTheTypesItsMethodsName() throws Exception {
        try (Isolated loader = new Isolated()) {
            Class<?> type = loader.loadClass(NotAServlet.class.getName());
            var unit = ServletUnit.create(new WeavingStats().add("request", "test", "servlets"));

            assertThat(unit.types().matches(TypeDescription.ForLoadedType.of(type))).isFalse();
            assertThat(loader.hasLoaded("io.qosweaver.testtargets.reflect.NamedOnly"))
                    .as("the matcher reflected on the declared methods").isFalse();
        }
    }
}
