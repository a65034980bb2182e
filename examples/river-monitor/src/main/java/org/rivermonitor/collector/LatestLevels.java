package org.rivermonitor.collector;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.rivermonitor.Reading;

/** The latest reading of every river, kept in memory for the up-to-date pages. */
public final class LatestLevels {

    private final AtomicReferenceArray<Reading> latest;
    private final AtomicReferenceArray<Reading> previous;

    public LatestLevels(int rivers) {
        latest = new AtomicReferenceArray<>(rivers + 1);
        previous = new AtomicReferenceArray<>(rivers + 1);
    }

    public void update(Reading r) {
        previous.set(r.riverId(), latest.getAndSet(r.riverId(), r));
    }

    /** The latest reading of the river, or null if none yet. */
    public Reading get(int riverId) {
        return riverId > 0 && riverId < latest.length() ? latest.get(riverId) : null;
    }

    /** The reading before the latest one, or null. */
    public Reading previous(int riverId) {
        return riverId > 0 && riverId < previous.length() ? previous.get(riverId) : null;
    }

    public List<Reading> snapshot() {
        List<Reading> out = new ArrayList<>(latest.length());
        for (int i = 1; i < latest.length(); i++) {
            Reading r = latest.get(i);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }
}
