/**
 * The policy simulator (STYLE.md item 5, after Caffeine's): replays a workload against every
 * registered policy on the scheduler's own {@code StateMachine}, on a virtual clock and a model of
 * the CPU, without threads or a server, and prints one table. Nothing here names a policy: the
 * versions are "original" plus every name in the registry, each under every CPU model, and the
 * policies act on simulated threads through the same SPI they use at run time (the state machine's
 * {@code Control}, and a {@code PolicyContext} whose platform services are models).
 */
package io.qosweaver.simulator;
