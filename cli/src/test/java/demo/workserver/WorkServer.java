package demo.workserver;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A small HTTP service for the profiler's end-to-end tests, outside {@code io.qosweaver} (which the
 * profiler never weaves): {@code GET /} does about ten million small calls on a pool thread;
 * {@code GET /nap?MS} sleeps MS ms and answers whether the sleep was interrupted and whether the
 * thread is still interrupted once {@link #nap} returned. Arguments: the loopback port.
 */
public final class WorkServer {
    private WorkServer() {}

    public static void main(String[] args) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                Integer.parseInt(args[0])), 16);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            byte[] body = (Long.toString(work(2_000_000)) + "\n").getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/nap", exchange -> {
            String answer = nap(Long.parseLong(exchange.getRequestURI().getQuery())) + ", interrupted after "
                    + Thread.interrupted() + "\n";
            byte[] body = answer.getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    /** Sleeps; an interrupt ends the sleep and is kept, as well-behaved code keeps it. */
    static String nap(long ms) {
        try {
            Thread.sleep(ms);
            return "slept";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    static long work(int n) {
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += step(i) ^ mix(acc);
        }
        return acc;
    }

    static long step(int i) {
        return i * 31L + (i >>> 3);
    }

    static long mix(long x) {
        return Long.rotateLeft(x, 7) + 1;
    }
}
