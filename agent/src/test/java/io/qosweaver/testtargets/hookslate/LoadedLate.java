package io.qosweaver.testtargets.hookslate;

/** Loaded only after the hooks are woven (woven at its first definition, not by retransformation). */
public class LoadedLate {
    public static int square(int x) {
        return Math.multiplyExact(x, x);
    }
}
