package io.qosweaver.scheduler.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/** {@code Thread.isVirtual()} (JDK 21+) from Java 17 bytecode: always false on older JDKs. */
final class VirtualThreads {
    private static final MethodHandle IS_VIRTUAL = find();

    private VirtualThreads() {}

    private static MethodHandle find() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** Whether this JVM has virtual threads. */
    static boolean supported() {
        return IS_VIRTUAL != null;
    }

    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            return false;
        }
    }
}
