/**
 * The API's bridges to the scheduler and the tracer: method handles on
 * {@code io.qosweaver.scheduler.ShareBridge} and {@code io.qosweaver.trace.app.UserTrace},
 * found on the bootstrap class loader at run time (so that no agent class is needed at compile
 * time), cached, and re-found when the agent starts after the application. Depends on nothing but
 * {@code java.base}; not for applications.
 */
package io.qosweaver.api.internal;
