/**
 * The optional synchronized application log ({@code --sync-log}): the paper's {@code Logging}
 * class of the deadlock experiment (QoSWeaver 4.4, 5.4).
 */
package org.rivermonitor.log;
