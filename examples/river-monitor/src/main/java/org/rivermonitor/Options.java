package org.rivermonitor;

import java.time.Duration;
import java.util.Locale;

/**
 * Command-line options of the river monitor. Parsed by hand to keep the dependency list short.
 */
public final class Options {

    public static final String USAGE = String.join("\n",
            "Usage: java -jar river-monitor.jar [options]",
            "",
            "Starts the river monitor (web UI + collector) and, unless --generator-url is given,",
            "the sensor data generator in the same process.",
            "",
            "Options:",
            "  --host HOST             address to bind (default 127.0.0.1)",
            "  --port PORT             monitor HTTP port, 0 = any free port (default 8080)",
            "  --generator-port PORT   data generator HTTP port, 0 = any free port (default 8081)",
            "  --generator-url URL     use an external generator at URL (e.g. http://host:8081);",
            "                          no generator is started",
            "  --generator-only        run only the data generator",
            "  --no-collector          serve the web UI without collecting (the history is still",
            "                          seeded; for measuring the pages alone)",
            "  --period DURATION       collection period (default 15s). A plain number is seconds",
            "                          and may have decimals (2.5); suffixes ms, s, m are accepted",
            "                          (500ms, 2.5s, 1m)",
            "  --rivers N              number of rivers (default 100)",
            "  --seed N                base seed of the simulated sensors (default 42)",
            "  --jdbc-url URL          database (default jdbc:h2:mem:river;DB_CLOSE_DELAY=-1);",
            "                          PostgreSQL: jdbc:postgresql://host:5432/db",
            "  --jdbc-user USER        database user (default: none / from the URL)",
            "  --jdbc-password PW      database password (default: none / from the URL)",
            "  --db-pool-size N        JDBC connection pool size (default 10)",
            "  --history-hours H       hours of history seeded at start-up, at the collection",
            "                          period's resolution (default 24; 0 = none)",
            "  --sync-log FILE|memory  write a line per reading and per chart through a log whose",
            "                          methods are synchronized (the paper's deadlock experiment;",
            "                          default: off)",
            "  --help                  print this help and exit");

    private static final java.util.Set<String> VALUED = java.util.Set.of("--host", "--port", "--generator-port",
            "--generator-url", "--period", "--rivers", "--seed", "--jdbc-url", "--jdbc-user", "--jdbc-password",
            "--db-pool-size", "--history-hours", "--sync-log");

    public String host = "127.0.0.1";
    public int port = 8080;
    public int generatorPort = 8081;
    public String generatorUrl;
    public boolean generatorOnly;
    public boolean noCollector;
    public Duration period = Duration.ofSeconds(15);
    public int rivers = 100;
    public long seed = 42;
    public String jdbcUrl = "jdbc:h2:mem:river;DB_CLOSE_DELAY=-1";
    public String jdbcUser;
    public String jdbcPassword;
    public int dbPoolSize = 10;
    public double historyHours = 24;
    /** {@code --sync-log}: a file, {@code memory}, or null for no such log (the default). */
    public String syncLog;
    public boolean help;

    /** Thrown for invalid command lines; the message says what to change. */
    public static final class UsageException extends IllegalArgumentException {
        public UsageException(String message) {
            super(message);
        }
    }

    public static Options parse(String... args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String value = null;
            int eq = arg.indexOf('=');
            if (arg.startsWith("--") && eq > 0) {
                value = arg.substring(eq + 1);
                arg = arg.substring(0, eq);
            }
            switch (arg) {
                case "--help", "-h" -> o.help = true;
                case "--generator-only" -> o.generatorOnly = true;
                case "--no-collector" -> o.noCollector = true;
                default -> {
                    if (!VALUED.contains(arg)) {
                        throw new UsageException("unknown option " + arg + " (see --help)");
                    }
                    if (value == null) {
                        if (i + 1 >= args.length) {
                            throw new UsageException("option " + arg + " needs a value (see --help)");
                        }
                        value = args[++i];
                    }
                    o.set(arg, value);
                }
            }
        }
        if (o.generatorOnly && o.generatorUrl != null) {
            throw new UsageException("--generator-only and --generator-url exclude each other");
        }
        if (o.generatorOnly && o.noCollector) {
            throw new UsageException("--generator-only and --no-collector exclude each other");
        }
        return o;
    }

    private void set(String name, String value) {
        switch (name) {
            case "--host" -> host = value;
            case "--port" -> port = parsePort(name, value);
            case "--generator-port" -> generatorPort = parsePort(name, value);
            case "--generator-url" -> generatorUrl = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
            case "--period" -> period = parseDuration(value);
            case "--rivers" -> rivers = parseInt(name, value, 1, 100_000);
            case "--seed" -> seed = parseLong(name, value);
            case "--jdbc-url" -> jdbcUrl = value;
            case "--jdbc-user" -> jdbcUser = value;
            case "--jdbc-password" -> jdbcPassword = value;
            case "--db-pool-size" -> dbPoolSize = parseInt(name, value, 1, 1000);
            case "--sync-log" -> {
                if (value.isBlank()) {
                    throw new UsageException("--sync-log needs a file or 'memory'");
                }
                syncLog = value;
            }
            case "--history-hours" -> {
                try {
                    historyHours = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    throw new UsageException("--history-hours: not a number: " + value);
                }
                if (historyHours < 0 || historyHours > 24 * 366) {
                    throw new UsageException("--history-hours must be between 0 and 8784, got " + value);
                }
            }
            default -> throw new UsageException("unknown option " + name + " (see --help)");
        }
    }

    /** Parses "15", "2.5", "2.5s", "500ms", "1m" into a duration of at least 1 ms. */
    public static Duration parseDuration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        double factorMs = 1000;
        if (t.endsWith("ms")) {
            factorMs = 1;
            t = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("m")) {
            factorMs = 60_000;
            t = t.substring(0, t.length() - 1);
        }
        double v;
        try {
            v = Double.parseDouble(t.trim());
        } catch (NumberFormatException e) {
            throw new UsageException("--period: cannot read '" + text + "' (examples: 15, 2.5, 500ms, 1m)");
        }
        long ms = Math.round(v * factorMs);
        if (!(v > 0) || ms < 1 || Double.isInfinite(v)) {
            throw new UsageException("--period must be at least 1ms, got '" + text + "'");
        }
        return Duration.ofMillis(ms);
    }

    private static int parsePort(String name, String value) {
        return parseInt(name, value, 0, 65535);
    }

    private static int parseInt(String name, String value, int min, int max) {
        int v;
        try {
            v = Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + ": not an integer: " + value);
        }
        if (v < min || v > max) {
            throw new UsageException(name + " must be between " + min + " and " + max + ", got " + v);
        }
        return v;
    }

    private static long parseLong(String name, String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new UsageException(name + ": not an integer: " + value);
        }
    }
}
