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
        System.out.println("DIR=" + pg.dataDir());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
