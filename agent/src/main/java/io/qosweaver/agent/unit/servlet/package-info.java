/**
 * The servlet unit: advice in {@code service(ServletRequest, ServletResponse)} of every
 * {@code jakarta.servlet} and {@code javax.servlet} servlet class, classifying requests by their
 * path into the {@code servletPath} task classes through the bootstrap helper
 * {@code ServletTaskClasses}.
 */
package io.qosweaver.agent.unit.servlet;
