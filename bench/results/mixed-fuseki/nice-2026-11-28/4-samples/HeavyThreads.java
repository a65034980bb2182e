import jdk.jfr.consumer.*;
import java.nio.file.*;
import java.util.*;
/** Threads inside an analytics scope (entered, not left) at given epoch-ms times: java HeavyThreads.java REC T... */
public class HeavyThreads {
    public static void main(String[] a) throws Exception {
        long[] at = Arrays.stream(a).skip(1).mapToLong(Long::parseLong).toArray();
        List<RecordedEvent> ev = new ArrayList<>();
        try (RecordingFile rf = new RecordingFile(Path.of(a[0]))) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String n = e.getEventType().getName();
                if (n.equals("qosweaver.Enter") || n.equals("qosweaver.Exit")) ev.add(e);
            }
        }
        ev.sort(Comparator.comparing(RecordedEvent::getStartTime));
        for (long t : at) {
            Map<String, Integer> depth = new HashMap<>();
            for (RecordedEvent e : ev) {
                if (e.getStartTime().toEpochMilli() > t) break;
                if (!"analytics".equals(e.getString("taskClass"))) continue;
                depth.merge(e.getThread().getJavaName(), e.getEventType().getName().endsWith("Enter") ? 1 : -1, Integer::sum);
            }
            System.out.println(t + ": " + depth.values().stream().filter(d -> d > 0).count() + " threads in a heavy request");
        }
    }
}
