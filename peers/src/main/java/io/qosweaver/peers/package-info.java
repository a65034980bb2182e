/**
 * Today's tools as experiment versions: a small {@code -javaagent} that installs Jetty 12's
 * {@code QoSHandler} or Netflix concurrency-limits (behind our servlet filter) into the unmodified
 * server at {@code Server.setHandler}, so that every version of an experiment runs the same
 * application. Nothing of QoSWeaver's scheduler is involved.
 */
package io.qosweaver.peers;
