package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.JavaPriorities;

/** Prints the Java-priority measurement's verdict; run in a JVM with the flags under test. */
public final class PriorityProbeMain {
    private PriorityProbeMain() {}

    public static void main(String[] args) {
        JavaPriorities p = JavaPriorities.ofThisJvm();
        System.out.println("effective=" + p.effective() + " reason=" + p.reason());
    }
}
