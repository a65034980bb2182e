package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Method handles on a server's public API, found from the request object's class: the helpers on
 * the bootstrap class path cannot link a server's types (they live in the application's class
 * loaders, in several versions), so they look the API up once per request class and call it
 * through handles. Public lookups only: nothing is opened or set accessible.
 */
final class PublicApi {
    private PublicApi() {}

    /** The supertype (class or interface) of {@code type} named {@code name}, or null. */
    static Class<?> supertype(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name)) {
                return c;
            }
            Class<?> hit = inInterfaces(c, name);
            if (hit != null) {
                return hit;
            }
        }
        return null;
    }

    private static Class<?> inInterfaces(Class<?> c, String name) {
        for (Class<?> i : c.getInterfaces()) {
            if (i.getName().equals(name)) {
                return i;
            }
            Class<?> hit = inInterfaces(i, name);
            if (hit != null) {
                return hit;
            }
        }
        return null;
    }

    /**
     * A public method of {@code api} (instance or static) by name and parameter types, typed as
     * declared: an instance method takes the receiver first.
     */
    static MethodHandle method(Class<?> api, String name, Class<?>... params) throws ReflectiveOperationException {
        return MethodHandles.publicLookup().unreflect(api.getMethod(name, params));
    }
}
