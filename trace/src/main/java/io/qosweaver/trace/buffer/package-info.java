/**
 * Per-thread ring buffers for the events application threads report (requests, and any level that
 * records on the hot path): lock-free, allocation-free writers, one drain thread, loss counted.
 * Depends on the platform module (the OS thread id, resolved once per thread).
 */
package io.qosweaver.trace.buffer;
