package io.qosweaver.e2e;

import com.sun.jna.Library;
import com.sun.jna.Native;

/**
 * E2eApp for an application that brings its own JNA on the class path: it uses it (getpid through
 * libc) before serving, so that LinuxPriorityIT can check that the agent's private JNA and the
 * application's coexist.
 */
public final class E2eJnaApp {
    private E2eJnaApp() {}

    public interface LibC extends Library {
        int getpid();
    }

    public static void main(String[] args) throws Exception {
        LibC libc = Native.load("c", LibC.class);
        System.out.println("APP_JNA pid=" + libc.getpid() + " version=" + Native.VERSION + " loader="
                + Native.class.getClassLoader().getClass().getSimpleName());
        System.out.flush();
        E2eApp.main(args);
    }
}
