package io.qosweaver.agent;

import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;

/**
 * The agent's profiling mode (QoSWeaver section 3.3; agent/README.md "Profiling"): the probe woven
 * into the included packages once, and recordings switched on and off over JMX
 * ({@link ProfilerMXBean}), the loopback HTTP endpoint and the shutdown hook. The probe stays
 * woven while paused (a volatile read and a branch per call).
 */
public final class Profiling implements ProfilerMXBean {
    private static volatile Profiling current;

    private final ProfileArgs args;
    private final AgentLog log;
    private final Instrumentation inst;
    private final ProfileWeaving.SignatureTable table = new ProfileWeaving.SignatureTable();
    private final ProfileWeaving wrapper = new ProfileWeaving(table);
    private ResettableClassFileTransformer transformer;
    private ProfileRecording recording;
    private int files;
    private Thread shutdownHook;
    private ObjectName mbeanName;
    private MetricsServer metrics;

    private Profiling(ProfileArgs args, Instrumentation inst, AgentLog log) {
        this.args = args;
        this.inst = inst;
        this.log = log;
    }

    public static Profiling current() {
        return current;
    }

    /** Weaves the probe, registers the MXBean and the shutdown hook, and starts unless paused. */
    public static synchronized Profiling start(ProfileArgs args, Instrumentation inst, AgentLog log) {
        Profiling old = current;
        if (old != null) {
            log.info("profiling: replacing the earlier profiling session (" + old.status() + ")");
            old.close();
        }
        Profiling p = new Profiling(args, inst, log);
        p.transformer = ProfileWeaving.install(inst, args.include(), p.wrapper, log);
        p.shutdownHook = new Thread(p::stop, "qosweaver-profile-shutdown");
        Runtime.getRuntime().addShutdownHook(p.shutdownHook);
        p.registerMBean();
        current = p;
        if (args.paused()) {
            log.info("profiling paused: include " + String.join("+", args.include()) + ", " + p.woven()
                    + "; start it over JMX (" + OBJECT_NAME + " start())"
                    + (args.metricsPort() >= 0 ? " or POST /profile/start" : ""));
        } else {
            p.start();
        }
        if (args.metricsPort() >= 0) {
            try {
                p.metrics = MetricsServer.start(args.metricsPort(), null);
                log.info("profile control on http://127.0.0.1:" + p.metrics.port() + "/profile/{start,stop,status}");
            } catch (Exception e) {
                log.warn("profile control endpoint not started on port " + args.metricsPort() + ": " + e);
            }
        }
        return p;
    }

    @Override
    public synchronized String start() {
        if (recording != null && recording.recording()) {
            return status();
        }
        if (recording != null) {
            recording.stop(); // a recording a limit stopped: make sure its file is complete
        }
        Path file = nextFile();
        try {
            recording = ProfileRecording.start(file, args, table, log);
        } catch (Exception e) {
            log.warn("could not start the profile " + file + ": " + e);
            return "not recording: could not open " + file + ": " + e;
        }
        files++;
        log.info("profiling started: include " + String.join("+", args.include()) + ", writing " + file + " ("
                + woven() + " so far)");
        return status();
    }

    private Path nextFile() {
        if (files == 0) {
            return args.out();
        }
        String name = args.out().getFileName().toString();
        int dot = name.lastIndexOf('.');
        String numbered = dot > 0 ? name.substring(0, dot) + "-" + (files + 1) + name.substring(dot)
                : name + "-" + (files + 1);
        return args.out().resolveSibling(numbered);
    }

    @Override
    public synchronized String stop() {
        if (recording == null) {
            return "not recording (nothing started yet)";
        }
        return recording.stop();
    }

    /** "N classes (R of them retransformed), C call sites woven". */
    private String woven() {
        return wrapper.classes.get() + " classes (" + wrapper.retransformed.get() + " of them already loaded,"
                + " retransformed), " + wrapper.callSites.get() + " call sites woven";
    }

    @Override
    public synchronized String status() {
        String weaving = " [" + woven() + "]";
        if (recording == null) {
            return "paused, nothing recorded yet (next file " + args.out() + ")" + weaving;
        }
        return recording.summary() + weaving;
    }

    @Override
    public synchronized boolean isRecording() {
        return recording != null && recording.recording();
    }

    @Override
    public synchronized long getJoinPoints() {
        return recording == null ? 0 : recording.joinPoints();
    }

    @Override
    public synchronized String getFile() {
        return recording == null ? args.out().toString() : recording.file.toString();
    }

    @Override
    public synchronized String getLimitMessage() {
        return recording == null ? null : recording.limitMessage();
    }

    /** Probes of the current (or last) recording skipped by the recursion guard. */
    synchronized long probeReentered() {
        return recording == null ? 0 : recording.reentered();
    }

    synchronized long probeErrors() {
        return recording == null ? 0 : recording.probeErrors();
    }

    long classesWoven() {
        return wrapper.classes.get();
    }

    long callSitesWoven() {
        return wrapper.callSites.get();
    }

    int signaturesInterned() {
        return table.size();
    }

    /** Prometheus text for {@code /metrics} in profile mode. */
    String metricsText() {
        return "# TYPE qosweaver_profile_recording gauge\nqosweaver_profile_recording " + (isRecording() ? 1 : 0) + "\n"
                + "# TYPE qosweaver_profile_join_points gauge\nqosweaver_profile_join_points " + getJoinPoints() + "\n"
                + "# TYPE qosweaver_profile_classes_woven_total counter\nqosweaver_profile_classes_woven_total "
                + wrapper.classes.get() + "\n"
                + "# TYPE qosweaver_profile_classes_retransformed_total counter\nqosweaver_profile_classes_retransformed_total "
                + wrapper.retransformed.get() + "\n"
                + "# TYPE qosweaver_profile_call_sites_woven_total counter\nqosweaver_profile_call_sites_woven_total "
                + wrapper.callSites.get() + "\n"
                + "# TYPE qosweaver_profile_weave_errors_total counter\nqosweaver_profile_weave_errors_total "
                + wrapper.errors.get() + "\n"
                + "# TYPE qosweaver_profile_probe_reentered gauge\nqosweaver_profile_probe_reentered "
                + probeReentered() + "\n";
    }

    /**
     * Stops, unregisters and unweaves (classes go back to their original bytes): for tests and
     * for a second attach.
     */
    public synchronized void close() {
        stop();
        if (current == this) {
            current = null;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        if (mbeanName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbeanName);
            } catch (Exception e) {
                // gone already
            }
        }
        if (metrics != null) {
            metrics.stop();
        }
        if (transformer != null) {
            transformer.reset(inst, AgentBuilder.RedefinitionStrategy.RETRANSFORMATION);
        }
    }

    private void registerMBean() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(OBJECT_NAME);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(this, name);
            mbeanName = name;
        } catch (Exception | LinkageError e) {
            log.warn("JMX control of the profile not available (" + e + "); the profile still records");
        }
    }
}
