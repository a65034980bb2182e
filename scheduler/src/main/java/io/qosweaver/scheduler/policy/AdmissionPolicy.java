package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.ThreadView;

/**
 * Admission control, the first baseline of the QoSWeaver paper (5.1): "the same as the policy of
 * our scheduling except that it is enforced only when a thread starts". Task classes carry
 * {@code importance: high|low|normal} as for {@link ImportancePolicy}. While at least one
 * high-importance thread is inside its scope, a low-importance thread that enters its scope waits
 * at the entry, before its scope's body runs, until fewer than {@code lowLimit} low threads are
 * running; a low thread already running is never stopped halfway (the paper: "It is never
 * suspended halfway"). When the last high thread leaves, every waiting thread is admitted.
 *
 * <p>Where it waits: at entry, inside {@code QoS.enter} ({@link Control#admitAtEntry}), the
 * faithful option: a web server's admission control does not start the request at all, whereas
 * waiting at the first control point would let the request run its prologue (parsing, database
 * read) first and would make the baseline depend on where control points happen to be woven. It
 * needs nothing at control points: waiting at entry does not count as a pending yield, so control
 * points keep their fast path while this policy is installed.
 *
 * <p>{@code lowCap}, as for importance, admits at most that many low threads at any time (here
 * at their entry: a running one is never stopped).
 *
 * <p>{@code lowLimit} defaults to 1 as in the paper ("It limits the maximum number to one while a
 * high-importance thread is collecting water levels"); 0 admits no low request during a high task.
 * The suspension-time metric measures, per high task, the time until the running low threads are
 * at most {@code lowLimit}: here it lasts until the requests already running finish by themselves,
 * which is exactly the difference the paper's Fig. 16 shows.
 */
final class AdmissionPolicy extends ImportancePolicy {
    static final String NAME = "admission";

    AdmissionPolicy(int lowLimit, int lowCap) {
        super(NAME, lowLimit, lowCap, true);
    }

    static Policy create(PolicyContext context) {
        // Same parameters and messages as importance, so that a file switches by name only.
        Parameters p = context.parameters().allowOnly(java.util.List.of(LOW_LIMIT, LOW_CAP),
                "lowLimit and lowCap, a number of threads (an integer >= 0, or a multiple of the cores such as 1x)");
        return new AdmissionPolicy(lowLimit(p, context.cores()), lowCap(p, context.cores()));
    }

    /** Only entries are limited: threads already running over the limit keep their slots. */
    @Override
    void applyLimit(Control c, int permits) {
        c.setLimitWithoutPreemption(permits);
    }

    /** An entering low thread waits at the entry, before its scope's body runs. */
    @Override
    void admit(Control c, ThreadView t) {
        c.admitAtEntry(t);
    }
}
