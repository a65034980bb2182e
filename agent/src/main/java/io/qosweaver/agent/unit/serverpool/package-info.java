/**
 * The {@code threadPools} aspect's weaving: advice at the end of Jetty's {@code QueuedThreadPool}
 * start and dispatch and of Tomcat's endpoint executor creation and socket dispatch, reporting each
 * pool to the bootstrap helper {@code ServerPools}, which sizes it through the server's public
 * setters. Nothing here links against a server.
 */
package io.qosweaver.agent.unit.serverpool;
