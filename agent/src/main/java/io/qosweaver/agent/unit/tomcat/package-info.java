/**
 * The Tomcat unit: advice in {@code CoyoteAdapter.service} and {@code asyncDispatch} (Tomcat 9, 10
 * and 11), classifying every request into the {@code request} task classes right after Coyote parsed
 * it, through the bootstrap helper {@code TomcatRequests}.
 */
package io.qosweaver.agent.unit.tomcat;
