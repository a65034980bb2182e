package io.qosweaver.e2e.profiled;

/** Profiled in a child JVM by ProfileIT: a few phases of work, about 100 ms in all, then exit. */
public final class TinyApp {
    private TinyApp() {}

    static double phase(int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.sqrt(step(i));
        }
        return s;
    }

    static double step(int i) {
        return (i * 31L) % 1000;
    }

    static String render(double v) {
        return String.format("%.1f", v);
    }

    public static void main(String[] args) {
        long end = System.nanoTime() + 100_000_000L;
        StringBuilder out = new StringBuilder();
        int rounds = 0;
        while (System.nanoTime() < end) {
            out.setLength(0);
            out.append(render(phase(2_000)));
            rounds++;
        }
        System.out.println("TinyApp done: " + rounds + " rounds, " + out);
    }
}
