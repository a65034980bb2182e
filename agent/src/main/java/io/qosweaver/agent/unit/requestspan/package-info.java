/**
 * The profiling mode's request spans: the server integrations' entries for a request (servlet,
 * Jetty 12, Jetty 9.4 to 11, Tomcat, Undertow) woven with an advice that marks, in the probe's
 * stream, where the thread begins and ends handling a request ({@code CallProbe.requestBegin} and
 * {@code requestEnd}), so that the profile can say which of a thread's time served a request.
 */
package io.qosweaver.agent.unit.requestspan;
