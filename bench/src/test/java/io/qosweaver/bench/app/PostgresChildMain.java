package io.qosweaver.bench.app;

import io.qosweaver.bench.run.Layout;
import java.io.IOException;

/** A bench-like process for {@link PostgresTest}: starts a server, says where, and waits to be killed. */
public final class PostgresChildMain {
    private PostgresChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Postgres pg;
        try {
            pg = Postgres.start(Layout.find().root(), line -> { });
        } catch (IOException e) {
            System.out.println("FAILED " + e.getMessage());
            return;
        }
        System.out.println("JDBC=" + pg.jdbcUrl());
        System.out.println("SIGNALS=" + signals()); // for a failure's message: what this process inherited
        System.out.println("DIR=" + pg.dataDir());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** The blocked, ignored and caught signal masks of this process, as Linux lists them. */
    private static String signals() {
        try {
            return String.join(" ", java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status")).stream()
                    .filter(l -> l.startsWith("SigBlk") || l.startsWith("SigIgn") || l.startsWith("SigCgt"))
                    .map(l -> l.replaceAll("\\s+", "")).toList());
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }
}
