/**
 * The Undertow unit: advice in {@code Connectors.executeRootHandler} (Undertow 2), classifying
 * requests on worker threads into the {@code request} task classes through the bootstrap helper
 * {@code UndertowRequests}.
 */
package io.qosweaver.agent.unit.undertow;
