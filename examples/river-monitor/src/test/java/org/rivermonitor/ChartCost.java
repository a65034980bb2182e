package org.rivermonitor;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.List;
import org.rivermonitor.db.Database;
import org.rivermonitor.db.HistorySeeder;
import org.rivermonitor.db.Series;
import org.rivermonitor.web.ChartServlet;

/**
 * Measures the CPU time of one chart request's work (database read + chart + PNG), as done on
 * the request thread, per window, after warm-up. Not a test: run it by hand, see README.md.
 *
 * <pre>java -Djava.awt.headless=true -cp target/test-classes:target/river-monitor.jar org.rivermonitor.ChartCost [period-seconds] [iterations]</pre>
 */
public final class ChartCost {

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        double periodS = args.length > 0 ? Double.parseDouble(args[0]) : 15;
        int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        long stepMs = Math.round(periodS * 1000);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<River> rivers = River.all(4, 42);
        try (Database db = new Database("jdbc:h2:mem:cost;DB_CLOSE_DELAY=-1", null, null, 2)) {
            db.createSchema();
            long now = System.currentTimeMillis();
            new HistorySeeder(db, 42).seed(rivers, 24, stepMs, now);
            int[] windows = {3, 6, 12, 24};
            for (int warm = 0; warm < 15; warm++) {
                for (int h : windows) {
                    once(db, rivers.get(warm % rivers.size()), h, now);
                }
            }
            System.out.printf("period %.1f s, %d iterations per window, chart %s%n", periodS, iterations,
                    org.rivermonitor.chart.WaterLevelChart.WIDTH + "x" + org.rivermonitor.chart.WaterLevelChart.HEIGHT);
            System.out.println("hours  points  cpu_ms_median  cpu_ms_mean  cpu_ms_min  cpu_ms_max  png_bytes");
            for (int h : windows) {
                double[] cpu = new double[iterations];
                int points = 0;
                int bytes = 0;
                for (int i = 0; i < iterations; i++) {
                    long c0 = threads.getCurrentThreadCpuTime();
                    Series s = db.window(rivers.get(i % rivers.size()).id(), now - h * 3_600_000L, now).downsample(3000);
                    byte[] png = ChartServlet.render(rivers.get(i % rivers.size()), s, h, now);
                    cpu[i] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                    points = s.size();
                    bytes = png.length;
                }
                Arrays.sort(cpu);
                System.out.printf("%5d  %6d  %13.1f  %11.1f  %10.1f  %10.1f  %9d%n", h, points, cpu[iterations / 2],
                        Arrays.stream(cpu).average().orElse(0), cpu[0], cpu[iterations - 1], bytes);
            }
        }
    }

    private static void once(Database db, River river, int hours, long now) throws Exception {
        Series s = db.window(river.id(), now - hours * 3_600_000L, now).downsample(3000);
        ChartServlet.render(river, s, hours, now);
    }
}
