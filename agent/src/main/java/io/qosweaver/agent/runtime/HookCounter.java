package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.Hooks;
import io.qosweaver.agent.weaving.Weaving;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The counting switch of the hooks mode, on the {@link Hooks} class that woven code calls: the
 * bootstrap loader's copy when the agent put one there ({@link Weaving#bootstrapCopy}), which need
 * not be the class this code links against. Reflection, because the commands are rare and the
 * hooks' own path must not change.
 */
final class HookCounter {
    private final Class<?> hooks;

    HookCounter(Class<?> hooks) {
        this.hooks = hooks;
    }

    /** The class the woven hooks call. */
    static HookCounter woven() {
        return new HookCounter(Weaving.bootstrapCopy(Hooks.class));
    }

    void attach(boolean on) {
        invoke("attach", new Class<?>[] {boolean.class}, on);
    }

    boolean attached() {
        return (Boolean) invoke("attached", new Class<?>[0]);
    }

    long[] fired() {
        return (long[]) invoke("fired", new Class<?>[0]);
    }

    private Object invoke(String name, Class<?>[] types, Object... args) {
        try {
            Method m = hooks.getMethod(name, types);
            return m.invoke(null, args);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("hooks count: the woven Hooks class has no " + name + " (" + e + ")");
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("hooks count: " + name + " failed: " + e.getCause());
        }
    }
}
