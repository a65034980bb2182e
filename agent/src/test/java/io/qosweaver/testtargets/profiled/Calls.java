package io.qosweaver.testtargets.profiled;

import java.util.function.IntUnaryOperator;

/** Profiled by ProfilingSessionTest (include=io.qosweaver.testtargets.profiled). */
public class Calls {
    public static int leaf(int x) {
        return x + 1;
    }

    public long twice(String s) {
        return leaf(s.length()) + Math.abs(-leaf(1));
    }

    /** Calls: leaf, String.length, leaf, Math.abs, per iteration of twice; then Integer.valueOf. */
    public int run(int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += twice("ab");
        }
        return Integer.valueOf((int) sum);
    }

    /** The lambda body is synthetic and not profiled; the call to applyAsInt is. */
    public int lambda(int x) {
        IntUnaryOperator op = v -> leaf(v);
        return op.applyAsInt(x);
    }
}
