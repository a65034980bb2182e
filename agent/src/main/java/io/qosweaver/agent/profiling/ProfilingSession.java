package io.qosweaver.agent.profiling;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import com.sun.net.httpserver.HttpHandler;
import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.control.ControlServer;
import io.qosweaver.agent.control.LocalControl;
import io.qosweaver.agent.control.Routes;
import io.qosweaver.platform.ControlSockets;
import io.qosweaver.agent.control.Switch;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.unit.callprobe.CallProbeUnit;
import io.qosweaver.agent.unit.callprobe.SignatureTable;
import io.qosweaver.agent.unit.requestspan.RequestSpanUnits;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import net.bytebuddy.agent.builder.AgentBuilder;

/**
 * The agent's profiling mode (QoSWeaver section 3.3; agent/README.md "Profiling"): the probe woven
 * into the included packages once, and recordings switched on and off over JMX
 * ({@link ProfilingMXBean}), the loopback HTTP endpoint and the shutdown hook. The probe stays
 * woven while paused (a volatile read and a branch per call).
 */
public final class ProfilingSession implements ProfilingMXBean, Switch {
    private static volatile ProfilingSession current;

    private final ProfilingArgs args;
    private final AgentLog log;
    private final Instrumentation inst;
    private final SignatureTable table = new SignatureTable();
    private final CallProbeUnit unit;
    private final WeavingStats stats = new WeavingStats();
    private Weaving weaving;
    private ProfileRecording recording;
    private int files;
    private long workSharePpm;
    private Thread shutdownHook;
    private ObjectName mbeanName;
    private ControlServer metrics;

    private ProfilingSession(ProfilingArgs args, Instrumentation inst, AgentLog log) {
        this.args = args;
        this.inst = inst;
        this.log = log;
        this.unit = new CallProbeUnit(args.include(), table);
        this.workSharePpm = args.workSharePpm();
    }

    public static ProfilingSession current() {
        return current;
    }

    /** The local control socket of a profiling JVM ({@code qosweaver ctl PID profile start}); one per JVM. */
    private static LocalControl control;

    static final String COMMANDS = "commands of a profiling agent: status | profile start | profile stop | profile status";

    /** What {@code qosweaver ctl} may ask of a profiling agent. */
    static LocalControl.Reply command(List<String> words) {
        List<String> w = !words.isEmpty() && words.get(0).equals("--json") ? words.subList(1, words.size()) : words;
        ProfilingSession p = current;
        if (p == null) {
            return LocalControl.Reply.error("no profiling session");
        }
        String what = w.size() == 1 && (w.get(0).equals("status") || w.get(0).equals("help")) ? w.get(0)
                : w.size() == 2 && w.get(0).equals("profile") ? w.get(1) : "";
        return switch (what) {
            case "status" -> LocalControl.Reply.ok(p.status());
            case "start" -> LocalControl.Reply.ok(p.start());
            case "stop" -> LocalControl.Reply.ok(p.stop());
            case "help" -> LocalControl.Reply.ok(COMMANDS);
            default -> LocalControl.Reply.error((w.isEmpty() ? "no command" : "'" + String.join(" ", w) + "' is not a"
                    + " command here") + "; " + COMMANDS + " (swap, set and unweave need the agent started with a"
                    + " policy)");
        };
    }

    private static void startControl(AgentLog log) {
        if (control != null) {
            return;
        }
        try {
            long pid = ProcessHandle.current().pid();
            control = LocalControl.start(ControlSockets.directory(), pid, ProfilingSession::command, log);
            Runtime.getRuntime().addShutdownHook(new Thread(control::close, "qosweaver-ctl-close"));
            log.info("control socket " + control.socket() + " (qosweaver ctl " + pid + " profile start|stop)");
        } catch (IOException | RuntimeException e) {
            log.warn("control socket not started (qosweaver ctl will not reach this JVM): " + e.getMessage());
        }
    }

    /** Weaves the probe, registers the MXBean and the shutdown hook, and starts unless paused. */
    public static synchronized ProfilingSession start(ProfilingArgs args, Instrumentation inst, AgentLog log) {
        ProfilingSession old = current;
        if (old != null) {
            log.info("profiling: replacing the earlier profiling session (" + old.status() + ")");
            old.close();
        }
        ProfilingSession p = new ProfilingSession(args, inst, log);
        // Woven classes of named modules (JDK packages such as sun.java2d.marlin in java.desktop)
        // call CallProbe, in the bootstrap loader's unnamed module: each gets a read edge.
        List<InstrumentationUnit> units = new ArrayList<>();
        units.add(p.unit);
        // where the servers enter a request: the spans that generation keeps (pointcuts/README.md)
        units.addAll(RequestSpanUnits.create(p.stats.add("requestSpan", "server request entries",
                "servlet, Jetty, Tomcat and Undertow request entries")));
        p.weaving = Weaving.install(inst, units, p.stats,
                nameStartsWith("io.qosweaver.pointcuts.").or(nameStartsWith("io.qosweaver.cli.")),
                AgentBuilder.Listener.NoOp.INSTANCE, log, Weaving.bootstrapCopy(CallProbe.class));
        p.shutdownHook = new Thread(p::stop, "qosweaver-profile-shutdown");
        Runtime.getRuntime().addShutdownHook(p.shutdownHook);
        p.registerMBean();
        current = p;
        startControl(log);
        if (args.paused()) {
            log.info("profiling paused: include " + String.join("+", args.include()) + ", " + p.woven()
                    + "; start it over JMX (" + OBJECT_NAME + " start())"
                    + (args.metricsPort() >= 0 ? " or POST /profile/start" : ""));
        } else {
            p.start();
        }
        if (args.metricsPort() >= 0) {
            try {
                Map<String, HttpHandler> routes = new LinkedHashMap<>();
                routes.put("/metrics", Routes.metrics(p::metricsText));
                // GET the value, POST ?ppm=N sets it for the recordings started after
                routes.put(WORK_SHARE_PATH, Routes.setting(WORK_SHARE_PATH, "ppm", p::getWorkSharePpm,
                        p::setWorkSharePpm));
                routes.put("/profile/", Routes.onOff("/profile/", () -> p, ""));
                p.metrics = ControlServer.start(args.metricsPort(), routes);
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
            recording = ProfileRecording.start(file, args, workSharePpm / (double) ProfilingArgs.PPM, table, log);
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

    @Override
    public synchronized long getWorkSharePpm() {
        return workSharePpm;
    }

    @Override
    public synchronized void setWorkSharePpm(long ppm) {
        if (ppm < 1 || ppm > ProfilingArgs.PPM) {
            throw new IllegalArgumentException("work share " + ppm + " ppm: must be from 1 to " + ProfilingArgs.PPM
                    + " (parts per million of the time left once the probe's cost is out)");
        }
        if (ppm < ProfilingArgs.PPM && (args.joinPoints() || args.probeCostNanos() == 0)) {
            throw new IllegalArgumentException("a work share applies to slot summaries whose probe's cost is taken"
                    + " out (this profile: " + (args.joinPoints() ? "format=joinpoints" : "probeCost=none") + ")");
        }
        workSharePpm = ppm;
        log.info("profile: " + ppm + " ppm of the time left once the probe's estimated cost is out kept in the"
                + " recordings started from now on");
    }

    static final String WORK_SHARE_PATH = "/profile/work-share";

    /** "N classes (R of them retransformed), C call sites woven". */
    private String woven() {
        return stats.classesWoven() + " classes (" + stats.retransformed() + " of them already loaded,"
                + " retransformed), " + unit.callSites() + " call sites woven";
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
        return stats.classesWoven();
    }

    long callSitesWoven() {
        return unit.callSites();
    }

    int signaturesInterned() {
        return table.size();
    }

    /** Prometheus text for {@code /metrics} in profile mode. */
    String metricsText() {
        return "# TYPE qosweaver_profile_recording gauge\nqosweaver_profile_recording " + (isRecording() ? 1 : 0) + "\n"
                + "# TYPE qosweaver_profile_join_points gauge\nqosweaver_profile_join_points " + getJoinPoints() + "\n"
                + "# TYPE qosweaver_profile_classes_woven_total counter\nqosweaver_profile_classes_woven_total "
                + stats.classesWoven() + "\n"
                + "# TYPE qosweaver_profile_classes_retransformed_total counter\nqosweaver_profile_classes_retransformed_total "
                + stats.retransformed() + "\n"
                + "# TYPE qosweaver_profile_call_sites_woven_total counter\nqosweaver_profile_call_sites_woven_total "
                + unit.callSites() + "\n"
                + "# TYPE qosweaver_profile_weave_errors_total counter\nqosweaver_profile_weave_errors_total "
                + stats.errors() + "\n"
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
        if (weaving != null) {
            weaving.reset();
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
