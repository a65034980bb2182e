package org.example.myserver;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A line server: it accepts connections on one thread and puts them on a list; {@code workers}
 * connection threads take them off the list and answer each line with {@code echo: LINE}. The
 * connection threads poll the list without ever blocking (the bug): {@code controlConnections()}
 * returns null when the list is empty and the loop calls it again at once.
 *
 * <p>Arguments: {@code [port (0 = any, printed)] [workers (2)]}.
 */
public final class MyServer {
    private final Deque<Socket> connections = new ArrayDeque<>();
    private final AtomicLong served = new AtomicLong();
    private final ServerSocket server;

    MyServer(int port) throws IOException {
        server = new ServerSocket(port, 64, InetAddress.getLoopbackAddress());
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        MyServer s = new MyServer(port);
        s.startClientsThread(workers);
        System.out.println("MyServer listening on port " + s.server.getLocalPort() + " with " + workers
                + " connection threads");
        System.out.flush();
        s.acceptLoop();
    }

    /** The paper's startClientsThread: each connection thread loops over controlConnections. */
    void startClientsThread(int workers) {
        for (int i = 0; i < workers; i++) {
            Thread t = new Thread(() -> {
                while (true) {
                    Socket s = controlConnections();
                    if (s != null) {
                        handle(s);
                    }
                    // nothing to do: straight back to the list (the busy wait)
                }
            }, "connection-" + i);
            t.setDaemon(true);
            t.start();
        }
    }

    /** The next accepted connection, or null when there is none. */
    Socket controlConnections() {
        synchronized (connections) {
            return connections.pollFirst();
        }
    }

    void addConnectionToList(Socket s) {
        synchronized (connections) {
            connections.addLast(s);
        }
    }

    private void acceptLoop() throws IOException {
        while (true) {
            addConnectionToList(server.accept());
        }
    }

    private void handle(Socket s) {
        try (s; BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
                OutputStream out = s.getOutputStream()) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(("echo: " + line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            served.incrementAndGet();
        } catch (IOException e) {
            // the client went away: next connection
        }
    }
}
