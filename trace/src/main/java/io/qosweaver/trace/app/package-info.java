/**
 * The entry points called on application threads: {@code AppTrace} (the request integrations'
 * classified requests), {@code ServerTrace} (the server integrations' connections, handshakes,
 * parsing and service) and {@code UserTrace} (user events from the policy file's pointcuts and the
 * Java API). Allocation-free and lock-free, writing into {@code io.qosweaver.trace.buffer} rings.
 * On the bootstrap class path with the scheduler, so that woven code in any class loader reaches
 * one copy.
 */
package io.qosweaver.trace.app;
