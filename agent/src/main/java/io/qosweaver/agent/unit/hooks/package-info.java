/**
 * The hooks mode (experiment {@code bench hooks}, the dynamic-weaving paper's Fig. 3, 6, 7): an
 * idle hook at every method execution, and optionally every call site, of the included packages;
 * and the class-byte taps that check that unweaving gives every class back its original bytes.
 */
package io.qosweaver.agent.unit.hooks;
