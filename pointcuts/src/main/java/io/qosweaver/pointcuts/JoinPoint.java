package io.qosweaver.pointcuts;

/**
 * One profiled call join point: at {@code timeNanos} (any monotonic clock, e.g.
 * {@link System#nanoTime()}), thread {@code threadId} in method {@code caller} called {@code callee}.
 * Both signatures are in the canonical form of {@link Signatures}.
 */
public record JoinPoint(long timeNanos, long threadId, String caller, String callee) {}
