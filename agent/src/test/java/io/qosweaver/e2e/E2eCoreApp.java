package io.qosweaver.e2e;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A Jetty 12 server with a core {@code Handler} and no servlet at all (as REST frameworks built on
 * Jetty's core API are): requests never pass through {@code Servlet.service}. With the argument
 * {@code idle} it starts no server and only waits, for the check that warns when no server is seen.
 */
public final class E2eCoreApp {
    private E2eCoreApp() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("idle")) {
            System.out.println("IDLE");
            System.out.flush();
            Thread.sleep(60_000);
            return;
        }
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                int s = Request.getPathInContext(request).startsWith("/work") ? E2eWork.work() : 0;
                response.write(true, ByteBuffer.wrap(("core " + s).getBytes(StandardCharsets.UTF_8)), callback);
                return true;
            }
        });
        server.start();
        System.out.println("PORT=" + connector.getLocalPort());
        System.out.flush();
        server.join();
    }
}
