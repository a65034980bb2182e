package io.qosweaver.agent.unit.callprobe;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the weaver learns about the profiled code: the signatures the probe records (id to
 * canonical signature; the profile writer maps these ids to the file's own), and which of the
 * woven calls are made with a monitor held.
 */
public final class SignatureTable {
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    private final List<String> names = new ArrayList<>();
    private final Set<String> callsInMonitor = ConcurrentHashMap.newKeySet();

    /** A woven call made while its caller holds a monitor (both canonical signatures). */
    public void inMonitor(String caller, String callee) {
        callsInMonitor.add(caller + '\t' + callee);
    }

    /** {@code caller + "\t" + callee} of every woven call made with a monitor held, so far. */
    public List<String> callsInMonitor() {
        return List.copyOf(new java.util.TreeSet<>(callsInMonitor));
    }

    public int intern(String signature) {
        Integer id = ids.get(signature);
        if (id != null) {
            return id;
        }
        synchronized (names) {
            return ids.computeIfAbsent(signature, s -> {
                names.add(s);
                return names.size() - 1;
            });
        }
    }

    public String name(int id) {
        synchronized (names) {
            return names.get(id);
        }
    }

    public int size() {
        synchronized (names) {
            return names.size();
        }
    }
}
