package io.qosweaver.testtargets;

/** Not loaded before the weaving is installed: woven at load time rather than retransformed. */
public class LateWorker {
    public int run(Worker w, int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = w.step(s);
        }
        return s;
    }
}
