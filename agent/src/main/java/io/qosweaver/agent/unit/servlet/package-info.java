/**
 * The servlet unit: advice in {@code service(ServletRequest, ServletResponse)} of every
 * {@code jakarta.servlet} and {@code javax.servlet} servlet class, classifying requests into the
 * task classes that select them ({@code request} by method, request path, header and port;
 * {@code servletPath} by the path inside the context) through the bootstrap helper
 * {@code RequestTaskClasses}. The fallback for any servlet container.
 */
package io.qosweaver.agent.unit.servlet;
