/**
 * The agent's control plane over HTTP, on the loopback interface only: {@code /metrics}
 * (Prometheus text), {@code /timeline}, and the on/off switches {@code /profile/} and
 * {@code /intervals/}. It knows neither the scheduler nor the profiler: the runtime and the
 * profiling session hand it what to serve as functions.
 */
package io.qosweaver.agent.control;
