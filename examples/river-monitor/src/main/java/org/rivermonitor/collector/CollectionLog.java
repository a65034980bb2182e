package org.rivermonitor.collector;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The most recent collections, oldest first, bounded so that a long run does not grow memory. */
public final class CollectionLog {

    private final int capacity;
    private final ArrayDeque<CollectionRecord> records;

    public CollectionLog(int capacity) {
        this.capacity = capacity;
        this.records = new ArrayDeque<>(capacity);
    }

    public synchronized void add(CollectionRecord r) {
        if (records.size() == capacity) {
            records.removeFirst();
        }
        records.addLast(r);
    }

    public synchronized List<CollectionRecord> snapshot() {
        return new ArrayList<>(records);
    }
}
