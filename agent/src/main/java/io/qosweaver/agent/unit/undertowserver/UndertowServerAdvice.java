package io.qosweaver.agent.unit.undertowserver;

import io.qosweaver.agent.bootstrap.ServerEvents;
import io.qosweaver.trace.app.ServerTrace;
import net.bytebuddy.asm.Advice;

/** The Undertow 2 join points of the trace's server level, each a call into {@code ServerEvents} or {@code ServerTrace}. */
public final class UndertowServerAdvice {
    private UndertowServerAdvice() {}

    /** {@code HttpOpenListener.handleEvent(StreamConnection, PooledByteBuffer)}: a plain HTTP/1.1 connection opens. */
    public static final class Accepted {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object connection) {
            ServerEvents.undertowAccepted(connection);
        }
    }

    /** {@code UndertowAcceptingSslChannel.accept(StreamConnection, SSLEngine)}: a TLS connection opens. */
    public static final class TlsAccepted {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Return Object connection) {
            ServerEvents.undertowTlsAccepted(connection);
        }
    }

    /** {@code AbstractServerConnection.CloseSetter.handleEvent(StreamConnection)}: the connection closed. */
    public static final class Closed {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object connection) {
            ServerEvents.undertowClosed(connection);
        }
    }

    /** {@code UndertowSslConnection.HandshakeCallback.run()}: the TLS handshake finished. */
    public static final class TlsDone {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("this$0") Object sslConnection) {
            ServerEvents.undertowTlsDone(sslConnection);
        }
    }

    /** {@code HttpReadListener.handleEventWithNoRunningRequest(ConduitStreamSourceChannel)}: reading (and parsing). */
    public static final class Read {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object sourceChannel) {
            ServerEvents.undertowRead(sourceChannel);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /** {@code HttpTransferEncoding.setupRequest(HttpServerExchange)}: called once the request line and headers are parsed. */
    public static final class HeadersDone {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter() {
            ServerTrace.headersDone();
        }
    }

    /** {@code Connectors.executeRootHandler(HttpHandler, HttpServerExchange)}: the service, maybe dispatched. */
    public static final class Service {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(1) Object exchange) {
            ServerEvents.undertowService(exchange);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.serviceReturned();
        }
    }

    /** {@code HttpReadListener.exchangeComplete(HttpServerExchange)}: the request completed. */
    public static final class RequestDone {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object exchange) {
            ServerEvents.undertowRequestDone(exchange);
        }
    }

    /** HTTP/2: {@code Http2ReceiveListener.handleEvent(Http2Channel)}, reading (and parsing) a frame of a connection. */
    public static final class Http2Read {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object http2Channel) {
            ServerEvents.undertowHttp2Read(http2Channel);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /** HTTP/2: an {@code Http2ServerConnection} constructed, one per stream whose request is ready. */
    public static final class Http2Request {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object connection) {
            ServerEvents.undertowHttp2Request(connection);
        }
    }

    /** {@code Connectors.terminateResponse(HttpServerExchange)}: a response completed (acted on for HTTP/2 streams). */
    public static final class ResponseDone {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object exchange) {
            ServerEvents.undertowResponseDone(exchange);
        }
    }

    /** HTTP/2: {@code AbstractFramedChannel.FrameCloseListener.handleEvent(CloseableChannel)}, its connection closed. */
    public static final class Http2Closed {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("this$0") Object framedChannel) {
            ServerEvents.undertowFramedClosed(framedChannel);
        }
    }
}
