package io.qosweaver.agent.control;

/** Something switched on and off over HTTP (profiling, interval measurement); answers are one line. */
public interface Switch {
    String status();

    String start();

    String stop();
}
