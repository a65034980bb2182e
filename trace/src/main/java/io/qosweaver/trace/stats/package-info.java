/**
 * The statistics view (thesis 1.7, Paraver's thread x state matrix): the time each thread and each
 * task class spent in each state of each level, computed from the events the timeline writes (one
 * source of truth with the Perfetto file) and written as one self-contained HTML page whose matrix
 * is recomputed, for any time range, from per-thread state intervals embedded in it.
 */
package io.qosweaver.trace.stats;
