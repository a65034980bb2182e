package io.qosweaver.agent.unit.callprobe;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Weave-time interning of the signatures the probe records: id to canonical signature. The
 * profile writer maps these ids to the file's own.
 */
public final class SignatureTable {
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    private final List<String> names = new ArrayList<>();

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
