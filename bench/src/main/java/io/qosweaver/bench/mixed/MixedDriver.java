package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.AnswerCheck;
import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.load.LoadRun;
import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.load.RealtimeThreads;
import io.qosweaver.bench.report.JsonWriter;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One load class in a JVM of its own (the experiment starts one per class, see {@link DriverProcess}):
 * it starts the load at once, measures from {@code --window-start-ms} to {@code --window-end-ms} (wall
 * clock, so that two drivers measure the same window), stops, and writes the window as a
 * {@link LoadResult} in JSON to {@code --out}.
 *
 * <pre>
 * MixedDriver --name light --mode open --rate 20 --clients 64 --target URL [--ids N]
 *             [--method PUT|POST --body FILE --content-type TYPE]
 *             --window-start-ms T0 --window-end-ms T1 --out FILE [--timeout-s 60] [--transport jdk|socket]
 *             [--fifo PRIORITY] [--expect TEXT [--expect-count N]]
 * </pre>
 *
 * {@code --expect TEXT} checks every answer with a status below 400 for {@code TEXT}, at least
 * {@code --expect-count} times (default 1; {@link AnswerCheck}): one without is counted as an error
 * ("answer: 99 of 100 ..."), not as served.
 *
 * {@code --fifo P} puts every sending thread in {@code SCHED_FIFO} at priority {@code P} before it sends
 * ({@link RealtimeThreads}); a thread the kernel refuses it fails the driver, so a window never passes for
 * one measured that way when it was not.
 *
 * {@code --transport socket} (open loop only) sends with one blocking keep-alive socket per sending thread
 * ({@link LoadSpec.Transport#SOCKET}); the default is the JDK's client.
 *
 * Without {@code --method} every request is a GET. With {@code --method PUT} or {@code POST} every request
 * sends the whole of {@code --body}, read into memory once before the load starts, as {@code --content-type}.
 *
 * {@code {i}} in the target is replaced, for request number {@code seq}, by {@code seq * 7919 mod ids}: a
 * prime stride walks every id before any repeats, so the lookups spread over the data.
 */
public final class MixedDriver {
    static final long STRIDE = 7919;

    /** What the command line says. */
    record Args(String name, LoadSpec.Mode mode, int clients, double rate, String target, int ids,
                long windowStartMs, long windowEndMs, Path out, Duration timeout, LoadSpec.Body body,
                LoadSpec.Transport transport, int fifo, AnswerCheck answer) {

        static Args parse(String[] argv) {
            Map<String, String> m = new HashMap<>();
            for (int i = 0; i < argv.length; i++) {
                String k = argv[i];
                if (!k.startsWith("--") || i + 1 >= argv.length) {
                    throw new IllegalArgumentException("expected --key value pairs, got '" + k + "'");
                }
                m.put(k.substring(2), argv[++i]);
            }
            for (String required : List.of("name", "mode", "target", "window-start-ms", "window-end-ms", "out")) {
                if (!m.containsKey(required)) {
                    throw new IllegalArgumentException("missing --" + required);
                }
            }
            LoadSpec.Mode mode = switch (m.get("mode")) {
                case "closed" -> LoadSpec.Mode.CLOSED;
                case "open" -> LoadSpec.Mode.OPEN;
                default -> throw new IllegalArgumentException("--mode: closed or open, got '" + m.get("mode") + "'");
            };
            Args a = new Args(m.get("name"), mode, Integer.parseInt(m.getOrDefault("clients", "1")),
                    Double.parseDouble(m.getOrDefault("rate", "0")), m.get("target"),
                    Integer.parseInt(m.getOrDefault("ids", "1")), Long.parseLong(m.get("window-start-ms")),
                    Long.parseLong(m.get("window-end-ms")), Path.of(m.get("out")),
                    Duration.ofSeconds(Long.parseLong(m.getOrDefault("timeout-s", "60"))), body(m), transport(m),
                    Integer.parseInt(m.getOrDefault("fifo", "0")), answer(m));
            if (a.fifo < 0 || a.fifo > 99) {
                throw new IllegalArgumentException("--fifo: a SCHED_FIFO priority 1..99 (0: none), got " + a.fifo);
            }
            if (a.windowEndMs <= a.windowStartMs) {
                throw new IllegalArgumentException("--window-end-ms must be after --window-start-ms");
            }
            if (a.ids < 1) {
                throw new IllegalArgumentException("--ids must be at least 1, got " + a.ids);
            }
            return a;
        }

        LoadSpec spec() {
            LoadSpec.Targets targets = target.contains("{i}")
                    ? seq -> URI.create(target.replace("{i}", Long.toString(Math.floorMod(seq * STRIDE, (long) ids))))
                    : LoadSpec.Targets.fixed(URI.create(target));
            LoadSpec s = mode == LoadSpec.Mode.CLOSED ? LoadSpec.closed(name, clients, targets)
                    : LoadSpec.open(name, rate, clients, targets);
            return s.withTimeout(timeout).withBody(body).withTransport(transport).withAnswer(answer);
        }

        /** The answer check from {@code --expect} and {@code --expect-count}, or null. */
        private static AnswerCheck answer(Map<String, String> m) {
            if (!m.containsKey("expect")) {
                if (m.containsKey("expect-count")) {
                    throw new IllegalArgumentException("--expect-count needs --expect TEXT");
                }
                return null;
            }
            int count;
            try {
                count = Integer.parseInt(m.getOrDefault("expect-count", "1"));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--expect-count: a number, got '" + m.get("expect-count") + "'");
            }
            return new AnswerCheck(m.get("expect"), count);
        }

        private static LoadSpec.Transport transport(Map<String, String> m) {
            return switch (m.getOrDefault("transport", "jdk")) {
                case "jdk" -> LoadSpec.Transport.JDK;
                case "socket" -> LoadSpec.Transport.SOCKET;
                default -> throw new IllegalArgumentException("--transport: jdk or socket, got '" + m.get("transport") + "'");
            };
        }

        /** The method and body from {@code --method}, {@code --body} and {@code --content-type}. */
        private static LoadSpec.Body body(Map<String, String> m) {
            String method = m.getOrDefault("method", "GET").toUpperCase(Locale.ROOT);
            if (method.equals("GET")) {
                for (String k : List.of("body", "content-type")) {
                    if (m.containsKey(k)) {
                        throw new IllegalArgumentException("--" + k + " needs --method PUT or POST (a GET sends no body)");
                    }
                }
                return LoadSpec.Body.NONE;
            }
            if (!method.equals("PUT") && !method.equals("POST")) {
                throw new IllegalArgumentException("--method: GET, PUT or POST, got '" + m.get("method") + "'");
            }
            for (String k : List.of("body", "content-type")) {
                if (!m.containsKey(k)) {
                    throw new IllegalArgumentException("--method " + method + " needs --" + k);
                }
            }
            Path file = Path.of(m.get("body"));
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new IllegalArgumentException("--body: cannot read " + file + " (" + e + ")");
            }
            return LoadSpec.Body.of(method, bytes, m.get("content-type"));
        }
    }

    private MixedDriver() {
    }

    public static void main(String[] argv) throws Exception {
        Args a;
        try {
            a = Args.parse(argv);
        } catch (IllegalArgumentException e) {
            System.err.println("MixedDriver: " + e.getMessage());
            System.exit(2);
            return;
        }
        LoadResult r;
        try {
            r = run(a);
        } catch (IllegalStateException e) {
            System.err.println("MixedDriver " + a.name() + ": " + e.getMessage());
            System.exit(3);
            return;
        }
        JsonWriter.write(r, a.out());
        System.out.println("MixedDriver " + a.name() + ": " + r.get(a.name()).requests() + " requests in the window");
        System.exit(0); // the JDK client's selector thread is not a daemon
    }

    /**
     * @throws IllegalStateException if this JVM came up after its window had ended (a loaded
     *     machine): an empty window must not pass for a measurement
     */
    static LoadResult run(Args a) throws InterruptedException {
        long late = System.currentTimeMillis() - a.windowEndMs();
        if (late >= 0) {
            throw new IllegalStateException("started " + late + " ms after its window ended (the JVM took too long to"
                    + " start); give the drivers a longer lead before the window");
        }
        AtomicReference<String> refused = new AtomicReference<>();
        LoadDriver driver = new LoadDriver();
        if (a.fifo() > 0) {
            driver = driver.withSenderSetup(() -> {
                String why = RealtimeThreads.enterFifo(a.fifo());
                if (why != null) {
                    refused.compareAndSet(null, why);
                }
            });
        }
        LoadResult r;
        try (LoadRun run = driver.start(List.of(a.spec()), true)) {
            sleepUntil(a.windowStartMs());
            run.beginWindow();
            sleepUntil(a.windowEndMs());
            r = run.stopWindow();
        }
        if (refused.get() != null) {
            throw new IllegalStateException("--fifo " + a.fifo() + " refused: " + refused.get());
        }
        return r;
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long wait;
        while ((wait = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(wait, 1000));
        }
    }
}
