/**
 * The control-point unit: {@code QoS.controlPoint()} inserted immediately before each call
 * instruction a control-point pointcut selects (the paper's Fig. 9 pairs), by an ASM visitor.
 */
package io.qosweaver.agent.unit.controlpoint;
