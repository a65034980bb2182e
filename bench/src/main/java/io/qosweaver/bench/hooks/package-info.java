/**
 * Experiment {@code hooks} (issue 15; the dynamic-weaving paper's Fig. 3, 6, 7): what idle hooks
 * cost a light page's response time (none, at every execution join point, at every call and
 * execution join point, the filtered hooks of a real policy, after unweave), what a hook takes in
 * class bytes and metaspace, and whether unweaving gives every class back its original bytes.
 */
package io.qosweaver.bench.hooks;
