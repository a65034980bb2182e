package io.qosweaver.scheduler;

/** Prints the java-priority probe's verdict; run in a JVM with the flags under test. */
public final class PriorityProbeMain {
    private PriorityProbeMain() {}

    public static void main(String[] args) {
        JavaPriorityPolicy.Probe p = JavaPriorityPolicy.Probe.get();
        System.out.println("effective=" + p.effective + " reason=" + p.reason);
    }
}
