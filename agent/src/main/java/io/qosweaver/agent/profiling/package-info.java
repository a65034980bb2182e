/**
 * The profiling mode (QoSWeaver 3.3): the call probe woven into the included packages, recordings
 * switched on and off over JMX and HTTP, each written to a binary profile file by one writer
 * thread, with limits that stop a recording cleanly.
 */
package io.qosweaver.agent.profiling;
