package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real {@code jcmd Thread.print} of this test's JVM, and of a process that is gone. */
class ThreadDumpTest {

    @Test
    void dumpsALiveJvmToTheFileAndAGoneOneToNull(@TempDir Path dir) throws Exception {
        String name = Thread.currentThread().getName();
        Thread.currentThread().setName("thread-dump-test-marker");
        Path file = dir.resolve("sub/threads.txt");
        String dump;
        try {
            dump = ThreadDump.take(ProcessHandle.current().pid(), file);
        } finally {
            Thread.currentThread().setName(name);
        }
        assertThat(dump).as("jcmd beside this JVM").isNotNull().contains("\"thread-dump-test-marker\"")
                .contains("java.lang.Thread.State");
        assertThat(file).hasContent(dump);

        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        assertThat(ThreadDump.take(gone.pid(), dir.resolve("gone.txt"))).isNull();
    }
}
