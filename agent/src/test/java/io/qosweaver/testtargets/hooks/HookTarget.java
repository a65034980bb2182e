package io.qosweaver.testtargets.hooks;

/** Hooked in HooksUnitTest: three methods with code (the constructor too), four returns, three calls. */
public class HookTarget {
    public int add(int a, int b) {
        return Math.addExact(a, b);
    }

    public String twice(String s) {
        if (s == null) {
            return "";
        }
        return s.concat(s);
    }
}
