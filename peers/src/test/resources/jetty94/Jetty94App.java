import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.AbstractHandler;

/**
 * A Jetty 9.4 application served by a core handler, no servlet (as Apache Tika server's CXF transport is):
 * /hold answers once /release was asked, anything else at once. Compiled by JettyChannelIT against the Jetty
 * 9.4 jars the build copied, and run in a child JVM under the peers agent.
 */
public final class Jetty94App {
    private static volatile CountDownLatch released = new CountDownLatch(1);

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new AbstractHandler() {
            @Override
            public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
                    throws IOException {
                base.setHandled(true);
                if (target.equals("/hold")) {
                    System.out.println("HELD");
                    System.out.flush();
                    try {
                        released.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                } else if (target.equals("/release")) {
                    CountDownLatch l = released;
                    released = new CountDownLatch(1);
                    l.countDown();
                }
                response.setContentType("text/plain");
                response.getWriter().print("ok " + target);
            }
        });
        server.start();
        System.out.println("PORT=" + connector.getLocalPort() + " VERSION=" + Server.getVersion());
        System.out.flush();
        server.join();
    }
}
