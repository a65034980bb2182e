import io.qosweaver.pointcuts.SlotProfile;
import java.nio.file.Path;
import java.util.List;
/** Prints each timeline's span (first to last join point, in the profile's time) of a profile. */
public class Span { public static void main(String[] a) throws Exception { SlotProfile p = SlotProfile.read(List.of(Path.of(a[0])), 1_000_000); for (int t = 0; t < p.timelines(); t++) System.out.printf("timeline %d: span %.1f ms, %d join points total%n", t, (p.timelineEnd(t)-p.timelineStart(t))/1e6, p.joinPoints()); } }
