package io.qosweaver.agent.unit.tomcatserver;

import io.qosweaver.agent.bootstrap.ServerEvents;
import io.qosweaver.trace.app.ServerTrace;
import net.bytebuddy.asm.Advice;

/** The Tomcat (NIO and NIO2 connectors) join points of the trace's server level. */
public final class TomcatServerAdvice {
    private TomcatServerAdvice() {}

    /** {@code NioEndpoint.setSocketOptions(SocketChannel)} (NIO2: {@code AsynchronousSocketChannel}), on the acceptor thread. */
    public static final class Accepted {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object channel) {
            ServerEvents.accepted(channel);
        }
    }

    /** {@code NioEndpoint.NioSocketWrapper.doClose()}, {@code Nio2Endpoint.Nio2SocketWrapper.doClose()}. */
    public static final class Closed {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.This Object wrapper) {
            ServerEvents.tomcatClosed(wrapper);
        }
    }

    /** {@code SecureNioChannel.reset(SocketChannel, NioSocketWrapper)} (or NIO2's): a TLS connection opens (in the accept). */
    public static final class TlsOpen {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object channel) {
            ServerEvents.tomcatTlsOpen(channel);
        }
    }

    /**
     * {@code SecureNioChannel.handshake(boolean, boolean)}, {@code SecureNio2Channel.handshake()},
     * returning 0 when it was not complete: the handshake ends.
     */
    public static final class TlsStep {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static boolean enter(@Advice.This Object channel) {
            return ServerEvents.tomcatHandshakeComplete(channel);
        }

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object channel, @Advice.Enter boolean wasComplete, @Advice.Return int interest) {
            if (!wasComplete && interest == 0) {
                ServerEvents.tomcatTlsDone(channel);
            }
        }
    }

    /** {@code Http11Processor.service(SocketWrapperBase)}: reading a connection, then serving what it parsed. */
    public static final class Read {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object wrapper) {
            ServerEvents.tomcatRead(wrapper);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /** {@code Http11InputBuffer.parseHeaders()} returning true: the headers are parsed. */
    public static final class HeadersDone {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Return boolean done) {
            if (done) {
                ServerTrace.headersDone();
            }
        }
    }

    /** {@code CoyoteAdapter.service(Request, Response)}: the service. */
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

    /**
     * HTTP/2: {@code Http2UpgradeHandler.headersStart(int, boolean)}, the parser begins a HEADERS
     * frame; its exit in {@code headersEnd(int, boolean)} ends that parsing.
     */
    public static final class Http2HeadersStart {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("socketWrapper") Object socketWrapper) {
            ServerEvents.tomcatHttp2HeadersStart(socketWrapper);
        }
    }

    /** HTTP/2: {@code Http2UpgradeHandler.headersEnd(int, boolean)} returns: the HEADERS frame's parsing ends. */
    public static final class Http2HeadersEnd {
        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.readEnd();
        }
    }

    /**
     * HTTP/2: {@code Http2UpgradeHandler.processStreamOnContainerThread(Stream)}, a stream's request
     * handed to a container thread (in {@code headersEnd}, or in {@code init} for the request that upgraded the connection).
     */
    public static final class Http2Request {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("socketWrapper") Object socketWrapper, @Advice.Argument(0) Object stream) {
            ServerEvents.tomcatHttp2Request(socketWrapper, stream);
        }
    }

    /** HTTP/2: {@code StreamProcessor.service(SocketWrapperBase)}, a stream's service (its {@code stream} field). */
    public static final class Http2Service {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) Object socketWrapper, @Advice.FieldValue("stream") Object stream) {
            ServerEvents.tomcatStreamService(socketWrapper, stream);
        }

        @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
        static void exit() {
            ServerTrace.serviceEnd();
        }
    }
}
