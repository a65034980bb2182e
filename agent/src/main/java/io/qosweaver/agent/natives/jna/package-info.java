/** The JNA calls themselves (gettid, setpriority, getpriority), loaded only by the private loader. */
package io.qosweaver.agent.natives.jna;
