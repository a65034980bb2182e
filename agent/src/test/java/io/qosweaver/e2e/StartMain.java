package io.qosweaver.e2e;

/**
 * A trivial application for start-up checks: prints one line and ends, after the milliseconds given
 * as its argument if any (so that what the agent does after start-up happens in its lifetime).
 */
public final class StartMain {
    private StartMain() {}

    public static void main(String[] args) {
        run();
        System.out.println("STARTED");
        if (args.length > 0) {
            try {
                Thread.sleep(Long.parseLong(args[0]));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void run() {
        // the task class's entry
    }
}
