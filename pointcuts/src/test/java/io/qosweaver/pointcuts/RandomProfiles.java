package io.qosweaver.pointcuts;

import java.util.Random;

/** Small random profiles for the randomized tests: 1-2 sources, 1-2 threads, 1-3 callers, 2-7 callees. */
final class RandomProfiles {
    private RandomProfiles() {
    }

    /**
     * @param constructorF0 callee f0 is a constructor ({@code <init>}, never eligible) instead of a method
     */
    static Profile of(Random rnd, boolean constructorF0) {
        Profile.Builder b = Profile.builder();
        int sources = 1 + rnd.nextInt(2);
        int callers = 1 + rnd.nextInt(3);
        int callees = 2 + rnd.nextInt(6);
        for (int s = 0; s < sources; s++) {
            b.source("p" + s);
            int n = 1 + rnd.nextInt(40);
            for (int k = 0; k < n; k++) {
                long thread = 1 + rnd.nextInt(2);
                long time = rnd.nextInt(100) * 1_000L + rnd.nextInt(1000);
                String caller = "void r.C.m" + rnd.nextInt(callers) + "()";
                int f = rnd.nextInt(callees);
                String callee = f == 0 && constructorF0 ? "void r.D.<init>(int[])" : "int r.D.f" + f + "(int[])";
                b.joinPoint(time, thread, caller, callee);
            }
        }
        return b.build();
    }
}
