package io.qosweaver.agent.unit.jettyserver;

import io.qosweaver.agent.bootstrap.ServerEvents;
import io.qosweaver.trace.app.ServerTrace;
import net.bytebuddy.asm.Advice;

/**
 * The Jetty (9.4 to 12) join points of the trace's server level, each a call into {@code ServerEvents}
 * or {@code ServerTrace}.
 */
public final class JettyServerAdvice {
    private JettyServerAdvice() {}

    /** {@code ServerConnector.accepted(SocketChannel)}, on the acceptor thread. */
    public static final class Accepted {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object channel) {
            ServerEvents.accepted(channel);
        }
    }

    /**
     * {@code SelectableChannelEndPoint.doClose()} (10 to 12), {@code ChannelEndPoint.doClose()} (9.4):
     * the socket closes.
     */
    public static final class Closed {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object endPoint) {
            ServerEvents.jettyClosed(endPoint);
        }
    }

    /** {@code SslConnection.onOpen()}: the TLS handshake begins (the server waits for the client's hello). */
    public static final class TlsOpen {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object connection) {
            ServerEvents.jettyTlsOpen(connection);
        }
    }

    /**
     * {@code SslConnection.SslEndPoint} (12) or {@code DecryptedEndPoint} (9.4 to 11) {@code
     * .notifyHandshakeSucceeded(SSLEngine)}: once per successful handshake.
     */
    public static final class TlsDone {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object endPoint) {
            ServerEvents.jettyTlsDone(endPoint);
        }
    }

    /**
     * {@code HttpConnection.onFillable()} (12's {@code server.internal}, 9.4 to 11's {@code server}):
     * reading (and parsing) what arrived.
     */
    public static final class Read {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object connection) {
            ServerEvents.jettyRead(connection);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /**
     * {@code HttpConnection.RequestHandler.headerComplete()} (12), {@code
     * HttpChannelOverHttp.headerComplete()} (9.4 to 11): the request line and headers are parsed.
     */
    public static final class HeadersDone {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.headersDone();
        }
    }

    /**
     * Jetty 12 with HTTP/2: {@code HTTP2Connection.HTTP2Producer.produce()}, reading (and parsing)
     * the frames that arrived; {@code this$0} is its connection (an inner class's outer instance).
     */
    public static final class Http2Read {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("this$0") Object connection) {
            ServerEvents.jettyHttp2Read(connection);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /**
     * Jetty 12 with HTTP/2: {@code HTTP2ServerConnection.onNewStream(HTTP2Stream, HeadersFrame)}, a
     * new stream's request headers parsed; or, replayed by {@code onOpen()} after an
     * {@code Upgrade: h2c}, the upgrading HTTP/1.1 request as stream 1. Its entry, not its exit:
     * the request's task it offers may run (and end) on this thread before it returns.
     */
    public static final class Http2Headers {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object connection, @Advice.Argument(1) Object headersFrame) {
            ServerEvents.jettyHttp2Headers(connection, headersFrame);
        }
    }

    /** {@code Server.handle(Request, Response, Callback)} (12): the service, of an HTTP/1 request or an HTTP/2 stream. */
    public static final class Service12 {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object request) {
            ServerEvents.jetty12Service(request);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.serviceEnd();
        }
    }

    /** {@code Server.handle(HttpChannel)} (9.4 to 11): the service. */
    public static final class Service {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter() {
            ServerTrace.serviceBegin();
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.serviceEnd();
        }
    }
}
