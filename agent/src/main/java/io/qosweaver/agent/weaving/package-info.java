/**
 * Installing instrumentation units as one resettable Byte Buddy transformer, and what units share:
 * type matchers from pointcuts, supertype walks without class loading, counters of what was woven.
 * Knows no unit: units depend on it, never the reverse.
 */
package io.qosweaver.agent.weaving;
