package io.qosweaver.scheduler.stats;

import java.util.Map;

/** The installed scheduler's counters over JMX, as {@code io.qosweaver:type=Scheduler}. */
public interface SchedulerMXBean {
    String getPolicy();
    long getControlPoints();
    long getYields();
    long getSuspensions();
    long getResumes();
    long getInternalErrors();
    Map<String, Integer> getRunningThreads();
    int getSuspendedThreads();
    int getLimit();
    long getSuspensionTimeCount();
    long getSuspensionTimeSumNanos();
    long getSuspensionTimeMaxNanos();
    long getSuspensionTimeP50Nanos();
    long getSuspensionTimeP99Nanos();
    long getAdmissionWaits();
    long getAdmissionWaitNanos();
    long getMonitorSkips();
    long getInterruptedPasses();
    long getWaitTimeouts();
    /** "true"/"false" for priority policies, "n/a" for the others. */
    String getPriorityEffective();
    String getPriorityReason();
    /** Whether control-point intervals are measured (settable: see {@code Scheduler.measureIntervals}). */
    boolean isIntervalMeasurement();
    void setIntervalMeasurement(boolean on);
    /** Per task class, the mean measured interval between adjacent control points, in nanoseconds. */
    Map<String, Double> getControlPointIntervalMeanNanos();
    /** Per entity of a proportional-share policy (MTR-LS), the service fraction asked; empty for others. */
    Map<String, Double> getShareFractions();
    /** Per entity, the share of the managed cores received over the policy's last window. */
    Map<String, Double> getSharesReceived();
    /** Per entity, the CPU seconds it fell behind its fraction over the last window. */
    Map<String, Double> getShareLagSeconds();
}
