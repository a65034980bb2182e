import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;

/** Scope events and selector/producer samples of a recording between two epoch-ms times: java ConvoyTimeline.java REC FROM TO */
public class ConvoyTimeline {
    public static void main(String[] a) throws Exception {
        long from = Long.parseLong(a[1]), to = Long.parseLong(a[2]);
        List<String> out = new ArrayList<>();
        try (RecordingFile rf = new RecordingFile(Path.of(a[0]))) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                long t = e.getStartTime().toEpochMilli();
                if (t < from || t > to) continue;
                String type = e.getEventType().getName();
                if (type.startsWith("qosweaver.")) {
                    if (type.endsWith("LimitChange")) continue;
                    String tc = e.hasField("taskClass") ? e.getString("taskClass") : "";
                    out.add(String.format("%5d %-4s %-9s %s", t - from, e.getThread().getJavaName().replaceAll(".*-", "-"), type.substring(10), tc));
                } else if (type.equals("jdk.NativeMethodSample") || type.equals("jdk.ExecutionSample")) {
                    RecordedStackTrace st = e.getStackTrace();
                    if (st == null) continue;
                    boolean sel = false, prod = false;
                    String task = "";
                    for (RecordedFrame f : st.getFrames()) {
                        String n = f.getMethod().getType().getName() + "." + f.getMethod().getName();
                        if (n.contains("ManagedSelector.select")) sel = true;
                        if (n.contains("AdaptiveExecutionStrategy.tryProduce")) prod = true;
                        if (n.contains("RunTask") || n.contains("Server.handle")) task += " " + n.replaceAll(".*\\.", "");
                    }
                    if (sel || prod) {
                        out.add(String.format("%5d %-4s %s %s%s", t - from, e.getThread("sampledThread").getJavaName().replaceAll(".*-", "-"),
                                type.endsWith("NativeMethodSample") ? "native" : "java  ", sel ? "SELECT" : "PRODUCER", task));
                    }
                }
            }
        }
        out.sort(Comparator.comparingInt(s -> Integer.parseInt(s.substring(0, 5).trim())));
        out.forEach(System.out::println);
    }
}
