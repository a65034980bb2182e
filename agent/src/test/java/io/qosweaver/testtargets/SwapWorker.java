package io.qosweaver.testtargets;

/** Loaded before a swap's two weavings, both of which select the call in {@link #run}. */
public class SwapWorker {
    public int run(Worker w, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = w.step(s);
        }
        return s;
    }
}
