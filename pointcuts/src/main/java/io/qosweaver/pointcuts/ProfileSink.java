package io.qosweaver.pointcuts;

import java.io.IOException;

/**
 * Where profiled join points go: the binary writer (the agent's profiling mode), the in-memory
 * {@link Profile.Builder}, or a test. Signatures are canonical ({@link Signatures}).
 */
public interface ProfileSink {
    void joinPoint(long timeNanos, long threadId, String caller, String callee) throws IOException;
}
