package io.qosweaver.bench.app;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import java.util.List;

/**
 * One measured window of a river-monitor run. Only collections that START inside the window
 * count. Times in ms unless the name says otherwise; null where not measured (e.g. the
 * suspension metrics without the agent, or latency without load). {@code appCpuS} is the CPU
 * time the application's process used during the window (all its threads), and
 * {@code appCpuMsPerChart} that divided by the charts served: the overhead measure least
 * disturbed by a noisy machine. {@code runningTimeline} is empty unless the runner was asked
 * to record it. {@code threadCpu} is that CPU by thread group, once a second ({@link ThreadCpu}; empty
 * where the OS does not tell).
 */
public record ScenarioResult(
        String version, String scenario, double periodS, int rivers, int chartClients, int levelsClients,
        int chartHours, long windowStartMs, double windowSeconds,
        int collectionCount, int missedCount, Double deadlineMissRatio,
        Double collectionTimeMeanMs, Double collectionTimeMaxMs, Double collectionTimeStddevMs,
        Double collectionTimeP50Ms,
        double chartThroughputPerS, Double chartP50Ms, Double chartP99Ms, long chartErrors,
        Double levelsThroughputPerS, Double levelsP50Ms, Double levelsP99Ms,
        Double suspensionTimeP50Ms, Double suspensionTimeP99Ms, Double suspensionTimeMaxMs,
        Double suspensionTimeMeanMs, Long suspensionCount,
        List<Collection> collections, List<ClassResult> load, List<LoadResult.Sample> loadTimeSeries,
        List<GaugeSample> runningChartThreads, Double appCpuS, Double appCpuMsPerChart,
        List<TimelinePoint> runningTimeline, List<String> notes, List<ThreadCpu.Group> threadCpu) {

    /**
     * A collection of the window: offset of its start from the window start, in seconds;
     * {@code lateMs}, how long after its slot in the collector's fixed-rate schedule it started
     * (null when the app does not say).
     */
    public record Collection(double offsetS, long startMs, Long durationMs, Integer readings, boolean missed,
                             boolean unfinished, Long lateMs) {

        /** A collection of an app that does not report its schedule. */
        public Collection(double offsetS, long startMs, Long durationMs, Integer readings, boolean missed,
                          boolean unfinished) {
            this(offsetS, startMs, durationMs, readings, missed, unfinished, null);
        }
    }

    /** A gauge read at an offset (seconds) from the window start. */
    public record GaugeSample(double offsetS, double value) {
    }

    /** A change of a task class's threads (the scheduler's timeline), at an offset from the window start. */
    public record TimelinePoint(double offsetS, String taskClass, int members, int parked, int running) {
    }
}
