import io.qosweaver.pointcuts.SlotProfile;
import java.nio.file.Path;
import java.util.List;
/** Prints each timeline's span (first to last join point, in the profile's time) of a profile, and their sum. */
public class Span { public static void main(String[] a) throws Exception { SlotProfile p = SlotProfile.read(List.of(Path.of(a[0])), 1_000_000); long sum = 0; for (int t = 0; t < p.timelines(); t++) { long s = p.timelineEnd(t) - p.timelineStart(t); sum += s; System.out.printf("timeline %d: span %.1f ms%n", t, s / 1e6); } System.out.printf("all timelines: %.1f ms, %d join points%n", sum / 1e6, p.joinPoints()); } }
