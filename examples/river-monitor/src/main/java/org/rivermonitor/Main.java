package org.rivermonitor;

import java.util.concurrent.CountDownLatch;
import org.rivermonitor.generator.GeneratorServer;

/** Command-line entry point; see {@link Options#USAGE}. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Options options;
        try {
            options = Options.parse(args);
        } catch (Options.UsageException e) {
            System.err.println("river-monitor: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        if (options.generatorOnly) {
            GeneratorServer generator = RiverMonitor.startGenerator(options);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    generator.close();
                } catch (Exception ignored) {
                    // exiting anyway
                }
            }));
            System.out.println("river-monitor generator listening on " + generator.url());
            System.out.flush();
            stopped.await();
            return;
        }
        RiverMonitor app;
        try {
            app = RiverMonitor.start(options);
        } catch (Exception e) {
            System.err.println("river-monitor: could not start: " + e);
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        System.out.println(app.listeningLine());
        System.out.flush();
        stopped.await();
    }
}
