package io.qosweaver.scheduler.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The one word a control point's fast path reads: the number of flagged threads, over all
 * installed and closing schedulers, that control points must notice, plus
 * {@link ControlPointIntervals#MEASURING} while intervals are measured. When it is 0 no thread
 * anywhere must yield, so returning at once is correct; a thread flagged concurrently with that
 * read yields at its following control point (the paper's "at its next control point").
 */
public final class Pending {
    private static volatile int word;
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findStaticVarHandle(Pending.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Pending() {}

    /** The fast path's read (a volatile load; inlined). */
    public static int value() {
        return word;
    }

    static void add(int delta) {
        WORD.getAndAdd(delta);
    }
}
