package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.e2e.hooks.E2eHooksApp;
import io.qosweaver.platform.ControlClient;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hooks mode in a child JVM under {@code -javaagent}, with no policy: hooks counted in
 * {@code ctl hooks}, the class's bytes differ from the original while woven and are identical
 * after {@code ctl unweave}, and the program computes the same throughout.
 */
class HooksIT {
    private ChildJvms jvms;

    @AfterEach
    void stop() {
        if (jvms != null) {
            jvms.stopAll();
        }
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\"\\s*:\\s*(\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", key, json).isTrue();
        return Long.parseLong(m.group(1));
    }

    @Test
    void hooksAreCountedAndUnweavingGivesTheClassBackItsOriginalBytes(@TempDir Path dir) throws Exception {
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "hooks=all,hooksInclude=io.qosweaver.e2e.hooks,recordClassBytes=true",
                ChildJvms.testClasses(), E2eHooksApp.class.getName());
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!c.out().contains("READY") && System.nanoTime() < deadline && c.process().isAlive()) {
            Thread.sleep(50);
        }
        assertThat(c.out()).as("stderr: %s", c.err()).contains("READY");
        long pid = c.process().pid();
        ControlClient.Reply woven = null;
        while (System.nanoTime() < deadline) { // the control socket opens after the weaving
            try {
                woven = ControlClient.send(pid, "hooks");
                break;
            } catch (ControlClient.Unreachable e) {
                Thread.sleep(100);
            }
        }
        assertThat(woven).isNotNull();
        assertThat(woven.ok()).as(woven.text()).isTrue();
        // <init>, work, mix, main; calls: at least mix, rotateLeft, nanoTime
        assertThat(number(woven.text(), "executions")).isEqualTo(4);
        assertThat(number(woven.text(), "calls")).isGreaterThanOrEqualTo(3);
        assertThat(number(woven.text(), "classesWoven")).isEqualTo(1);
        assertThat(number(woven.text(), "differingNow")).isEqualTo(1);
        assertThat(number(woven.text(), "wovenBytes")).isGreaterThan(number(woven.text(), "originalBytes"));

        assertThat(ControlClient.send(pid, "unweave").ok()).isTrue();
        String after = ControlClient.send(pid, "hooks").text();
        assertThat(number(after, "identicalNow")).as(after).isEqualTo(1);
        assertThat(number(after, "differingNow")).isZero();
        assertThat(ControlClient.send(pid, "--json status").text()).contains("\"woven\": false");
        Thread.sleep(200);
        assertThat(c.out()).doesNotContain("CHANGED");
        assertThat(c.err()).contains("[qosweaver] agent started without a policy (hooks mode)");
    }
}
