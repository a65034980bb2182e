/**
 * The unit for Jetty 9.4, 10 and 11: advice in {@code Server.handle(HttpChannel)} and
 * {@code handleAsync(HttpChannel)}, classifying every request into the {@code request} task classes
 * through the bootstrap helper {@code JettyChannelRequests}.
 */
package io.qosweaver.agent.unit.jettychannel;
