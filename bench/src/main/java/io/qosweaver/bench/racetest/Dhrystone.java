package io.qosweaver.bench.racetest;

/**
 * One runner's work: a loop modelled after Dhrystone (integer arithmetic, record and array
 * assignments, string comparison, procedure calls, branches), as the paper's RaceTest was. One
 * {@link #loop()} is one "loop" of the paper's metric, about a microsecond here; its result feeds
 * the next so that the JIT cannot drop any of it.
 */
final class Dhrystone {
    private static final char[] STR_1 = "DHRYSTONE PROGRAM, 1'ST STRING".toCharArray();
    private static final char[] STR_2 = "DHRYSTONE PROGRAM, 2'ND STRING".toCharArray();
    /** Dhrystone iterations per loop: sized so that a loop takes about a microsecond. */
    static final int ITERATIONS = 40;

    private final int[] arr1 = new int[50];
    private final int[][] arr2 = new int[50][50];
    private final char[] str = new char[STR_1.length];
    private int intGlob;
    private boolean boolGlob;
    private char ch1Glob, ch2Glob;
    private long result;

    /** One loop; returns a value that depends on every step. */
    long loop() {
        for (int run = 1; run <= ITERATIONS; run++) {
            proc5();
            proc4();
            int int1 = 2, int2 = 3, int3;
            System.arraycopy(STR_2, 0, str, 0, str.length);
            boolGlob = !func2(STR_1, str);
            while (int1 < int2) {
                int3 = 5 * int1 - int2;
                int3 = proc7(int1, int2) + int3;
                int1++;
            }
            proc8(int1, int3 = int1 + int2);
            int1 = proc2(int1);
            for (char c = 'A'; c <= ch2Glob; c++) {
                if (func1(c, 'C') == 0) {
                    int2 = run;
                    intGlob = run;
                }
            }
            int2 = int2 * int1;
            int1 = int2 / int3;
            int2 = 7 * (int2 - int3) - int1;
            result += int1 + int2 + int3 + intGlob + (boolGlob ? 1 : 0);
        }
        return result;
    }

    private void proc4() {
        boolean b = ch1Glob == 'A';
        boolGlob = b | boolGlob;
        ch2Glob = 'B';
    }

    private void proc5() {
        ch1Glob = 'A';
        boolGlob = false;
    }

    private int proc2(int in) {
        int loc = in + 10;
        if (ch1Glob == 'A') {
            loc -= 1;
            return loc - intGlob;
        }
        return in;
    }

    private static int proc7(int a, int b) {
        return a + 2 + b;
    }

    private void proc8(int a, int b) {
        int loc = a + 5;
        arr1[loc] = b;
        arr1[loc + 1] = arr1[loc];
        arr1[loc + 30] = loc;
        for (int i = loc; i <= loc + 1; i++) {
            arr2[loc][i] = loc;
        }
        arr2[loc][loc - 1] += 1;
        arr2[loc + 20][loc] = arr1[loc];
        intGlob = 5;
    }

    private static int func1(char a, char b) {
        return a != b ? 0 : 1;
    }

    private static boolean func2(char[] a, char[] b) {
        if (func1(a[2], b[3]) != 0) {
            return true;
        }
        for (int k = 0; k < a.length; k++) {
            if (a[k] != b[k]) {
                return a[k] > b[k];
            }
        }
        return false;
    }
}
