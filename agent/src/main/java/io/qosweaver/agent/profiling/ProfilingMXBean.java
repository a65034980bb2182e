package io.qosweaver.agent.profiling;

import io.qosweaver.agent.bootstrap.CallProbe;

/**
 * {@code io.qosweaver:type=Profiler}: switches the agent's profiling mode on a running
 * application. Each start opens a new profile file (the first is the {@code profile=} file, then
 * {@code NAME-2.qwp}, {@code NAME-3.qwp}, ...); each stop writes it completely and closes it.
 */
public interface ProfilingMXBean {
    String OBJECT_NAME = "io.qosweaver:type=Profiler";

    /** Starts recording (a no-op while recording); returns the status line. */
    String start();

    /** Stops recording and closes the file; returns its summary. */
    String stop();

    /** One line: recording or paused, the file, join points, threads, signatures, bytes, limit. */
    String status();

    boolean isRecording();

    /** Join points written to the current (or last) file. */
    long getJoinPoints();

    /** The current (or last) profile file. */
    String getFile();

    /** Why the last recording stopped on its own, or null. */
    String getLimitMessage();

    /**
     * The share, in parts per million, of the time left once the probe's estimated cost is out that
     * recordings started from now on keep as the application's own work (agent argument {@code
     * workShare}; {@code qosweaver profile --request} measures it against an unprofiled run).
     */
    long getWorkSharePpm();

    /** Sets {@link #getWorkSharePpm()}; from 1 to 1,000,000, below 1,000,000 only for slot summaries. */
    void setWorkSharePpm(long ppm);
}
