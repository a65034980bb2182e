package io.qosweaver.e2e;

/** A trivial application for start-up checks: prints one line and ends. */
public final class StartMain {
    private StartMain() {}

    public static void main(String[] args) {
        run();
        System.out.println("STARTED");
    }

    static void run() {
        // the task class's entry
    }
}
