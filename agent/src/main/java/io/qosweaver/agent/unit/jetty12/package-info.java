/**
 * The Jetty 12 unit: advice in {@code Server.handle(Request, Response, Callback)}, where every
 * request reaches the handlers (servlet or core), classifying it into the {@code request} task
 * classes through the bootstrap helper {@code Jetty12Requests}.
 */
package io.qosweaver.agent.unit.jetty12;
