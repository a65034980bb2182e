package org.rivermonitor;

/** One water-level reading: river, epoch millis, level in metres. */
public record Reading(int riverId, long ts, double levelM) {
}
