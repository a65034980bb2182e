package io.qosweaver.bench.app;

/** Where a long run says how far it is; the CLI prints it on stderr. */
@FunctionalInterface
public interface Progress {
    void update(String line);

    Progress NONE = line -> { };

    static Progress stderr() {
        return line -> System.err.println(line);
    }
}
