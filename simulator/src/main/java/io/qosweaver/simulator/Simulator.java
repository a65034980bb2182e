package io.qosweaver.simulator;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.simulator.report.TableReport;
import io.qosweaver.simulator.stats.Result;
import io.qosweaver.simulator.stats.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs the workload for every version, in table order: "original" (no policy), then every policy
 * registered with the scheduler with its default parameters, each under the default CPU model; a
 * version under another CPU model is listed only where it measures differently (so Java
 * priorities get a second row, the policies that never touch priorities do not).
 *
 * <p>Run: {@code java -cp simulator/target/classes:scheduler/target/classes:platform/target/classes
 * io.qosweaver.simulator.Simulator [--cores 2] [--period-ms 1000] [--high-ms 300] [--clients 40]
 * [--low-ms 200] [--cp-us 1000] [--seconds 60] [--progress-points 100] [--lock-us 0] [--middle-clients 0]
 * [--middle-us 0]}.
 */
public final class Simulator {
    static final String ORIGINAL = "original";

    private Simulator() {}

    /** The versions simulated, in table order, before the CPU models are applied. */
    public static List<String> versions() {
        List<String> v = new ArrayList<>();
        v.add(ORIGINAL);
        v.addAll(Policies.builtInNames());
        return v;
    }

    public static List<Result> runAll(Workload w) {
        List<Result> out = new ArrayList<>();
        for (String v : versions()) {
            Result base = run(v, w, CpuModel.HOTSPOT_DEFAULT);
            out.add(base);
            for (CpuModel m : CpuModel.values()) {
                if (m != CpuModel.HOTSPOT_DEFAULT) {
                    Result r = run(v, w, m);
                    if (!r.sameMeasurements(base)) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    /** One version under one CPU model, with the policy's default parameters. */
    public static Result run(String version, Workload w, CpuModel cpu) {
        return run(version, w, cpu, Map.of());
    }

    /**
     * One version under one CPU model with the given policy parameters (as under {@code policy:}
     * in a policy file; "original" takes none).
     */
    public static Result run(String version, Workload w, CpuModel cpu, Map<String, String> parameters) {
        Policy.Factory f = version.equals(ORIGINAL) ? null : Policies.get(version);
        if (f == null && !version.equals(ORIGINAL)) {
            throw new IllegalArgumentException("unknown version '" + version + "'; use one of " + versions());
        }
        return new Simulation(version, f, parameters, w, cpu).run();
    }

    public static void main(String[] args) {
        Workload d = Workload.defaults();
        Map<String, Long> v = new java.util.LinkedHashMap<>();
        v.put("--cores", (long) d.cores());
        v.put("--period-ms", d.periodMs());
        v.put("--high-ms", d.highCostMs());
        v.put("--clients", (long) d.lowClients());
        v.put("--low-ms", d.lowCostMs());
        v.put("--cp-us", d.controlPointUs());
        v.put("--seconds", d.seconds());
        v.put("--progress-points", (long) d.progressPoints());
        v.put("--lock-us", d.lockUs());
        v.put("--middle-clients", (long) d.middleClients());
        v.put("--middle-us", d.middleCostUs());
        for (int i = 0; i < args.length; i += 2) {
            if (!v.containsKey(args[i]) || i + 1 >= args.length) {
                System.err.println("usage: Simulator " + String.join(" N ", v.keySet()) + " N  (unknown or"
                        + " incomplete option '" + args[i] + "')");
                System.exit(2);
            }
            try {
                v.put(args[i], Long.parseLong(args[i + 1]));
            } catch (NumberFormatException e) {
                System.err.println(args[i] + " takes a whole number, got '" + args[i + 1] + "'");
                System.exit(2);
            }
        }
        Workload w = new Workload(v.get("--cores").intValue(), v.get("--period-ms"), v.get("--high-ms"),
                v.get("--clients").intValue(), v.get("--low-ms"), v.get("--cp-us"), v.get("--seconds"),
                v.get("--progress-points").intValue(), v.get("--lock-us"), v.get("--middle-clients").intValue(),
                v.get("--middle-us"));
        System.out.print(TableReport.render(w, runAll(w)));
    }
}
