package io.qosweaver.e2e.hooks;

/**
 * HooksIT's program, hooked whole: prints READY with its result, then computes the same again
 * every 20 ms for up to a minute and prints CHANGED if a result ever differs.
 */
public final class E2eHooksApp {
    private E2eHooksApp() {}

    static int work(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = mix(s, i);
        }
        return s;
    }

    static int mix(int s, int i) {
        return Integer.rotateLeft(s, 3) ^ i;
    }

    public static void main(String[] args) throws InterruptedException {
        int expected = work(1000);
        System.out.println("READY " + expected);
        System.out.flush();
        long end = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < end) {
            int r = work(1000);
            if (r != expected) {
                System.out.println("CHANGED " + r);
                System.out.flush();
            }
            Thread.sleep(20);
        }
    }
}
