/**
 * Native thread priorities for the scheduler's platform SPI: a lazy proxy registered at start that
 * loads the nested JNA in a private class loader on first use, and reports why when it cannot.
 */
package io.qosweaver.agent.natives;
