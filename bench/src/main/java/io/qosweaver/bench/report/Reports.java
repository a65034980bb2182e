package io.qosweaver.bench.report;

import io.qosweaver.bench.app.Progress;
import java.nio.file.Path;

/**
 * Drawing a report never loses a run: {@code results.json} is written first, and a report that
 * cannot be drawn (a headless machine without font libraries, a full disk) says so in one line and
 * lets the experiment finish with its results.
 */
public final class Reports {
    private Reports() {}

    /** What draws a report. */
    @FunctionalInterface
    public interface Drawing {
        void draw() throws Exception;
    }

    /** Draws the report; on failure prints one line naming it and returns false. */
    public static boolean draw(Path dir, Progress progress, Drawing drawing) {
        try {
            drawing.draw();
            return true;
        } catch (Exception | LinkageError | java.awt.AWTError e) {
            progress.update("[report] could not draw the report in " + dir + " (" + e
                    + "); results.json is complete, and the report can be drawn again from it");
            return false;
        }
    }
}
