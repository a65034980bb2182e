package io.qosweaver.agent.weaving;

import io.qosweaver.pointcuts.ClassFileSynchronizedRegions;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.io.IOException;
import net.bytebuddy.dynamic.ClassFileLocator;

/** What the class files of a class loader say, read only when a weaver asks. */
public final class ClassFiles {
    private ClassFiles() {}

    /**
     * The monitor regions of the classes {@code loader} serves (the boot loader's for null), read
     * lazily from their class files; a class whose file cannot be read counts as holding no
     * monitor. Not thread-safe: one per transformation.
     */
    public static SynchronizedRegions synchronizedRegions(ClassLoader loader) {
        ClassFileLocator locator = ClassFileLocator.ForClassLoader.of(loader);
        return new ClassFileSynchronizedRegions(name -> {
            try {
                ClassFileLocator.Resolution r = locator.locate(name);
                return r.isResolved() ? r.resolve() : null;
            } catch (IOException | RuntimeException e) {
                return null;
            }
        });
    }
}
