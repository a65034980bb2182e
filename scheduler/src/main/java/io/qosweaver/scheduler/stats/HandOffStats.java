package io.qosweaver.scheduler.stats;

/**
 * The hand-off of a CPU from a demoted runner to the thread promoted in its place (policies with a
 * tick, such as MTR-LS): how many promoted threads were woken by their demoted runner, whether the
 * runtime can place them on that runner's CPU, and how many placements were made and undone (equal
 * once every woken thread has run).
 */
public record HandOffStats(long handOffs, boolean placement, long placements, long placementsUndone) {
}
