package io.qosweaver.cli.bench;

import io.qosweaver.bench.app.Postgres;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import java.io.IOException;
import picocli.CommandLine.Option;

/** Where the river monitor keeps its readings in an experiment: H2 in its heap (the default), or PostgreSQL. */
final class DatabaseOptions {
    @Option(names = "--postgres", description = "the river monitor's readings in a throw-away PostgreSQL server "
            + "started for the run (the paper's database: the history outside the app's heap), shared by every version "
            + "and window; started by " + Postgres.SCRIPT + ", which installs PostgreSQL with apt-get when it is "
            + "missing and the run is root")
    boolean postgres;

    /** The run's server when {@code --postgres} asks for one, else null (a try-with-resources skips it). */
    Postgres start(Layout layout, Progress progress) throws IOException, InterruptedException {
        return postgres ? Postgres.start(layout.root(), progress) : null;
    }

    /** The parameters with the server's arguments for the app, or as they are without one. */
    static FlashCrowdParams on(FlashCrowdParams p, Postgres pg) {
        return pg == null ? p : p.withMoreAppArgs(pg.appArgs());
    }
}
