/**
 * The application level's entry points, called on application threads by the agent's request
 * integrations: allocation-free and lock-free, writing into {@code io.qosweaver.trace.buffer}
 * rings. On the bootstrap class path with the scheduler, so that woven code in any class loader
 * reaches one copy.
 */
package io.qosweaver.trace.app;
