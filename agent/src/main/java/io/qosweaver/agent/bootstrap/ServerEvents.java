package io.qosweaver.agent.bootstrap;

import io.qosweaver.trace.app.ServerTrace;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;

/**
 * The server level's helper (Jetty, Tomcat and Undertow): the advice passes the server's own objects as
 * Object (the agent links no server type) and this class reaches their public methods through
 * method handles built once per class (a few package-private members of Tomcat's and Undertow's
 * HTTP/2 classes, with no public equivalent, by reflection made accessible once per class). A connection is named by the identity hash of its socket
 * channel, which every layer of a connection (Jetty's TLS and HTTP end points, Tomcat's socket
 * wrapper) leads to. Each method first reads whether the level is on, and does nothing else when
 * it is not.
 */
public final class ServerEvents {
    private ServerEvents() {}

    private static final MethodType TO_OBJECT = MethodType.methodType(Object.class, Object.class);
    private static final MethodType TO_INT = MethodType.methodType(int.class, Object.class);

    /** A public no-argument method of the supertype {@code owner} of a class, typed (Object) Object; null if none. */
    private static ClassValue<MethodHandle> getter(String owner, String name) {
        return getter(owner, name, TO_OBJECT);
    }

    /** As above, typed {@code handleType} (an int getter as (Object) int, so that nothing is boxed). */
    private static ClassValue<MethodHandle> getter(String owner, String name, MethodType handleType) {
        return new ClassValue<>() {
            @Override
            protected MethodHandle computeValue(Class<?> type) {
                Class<?> api = PublicApi.supertype(type, owner);
                if (api == null) {
                    return null;
                }
                try {
                    return PublicApi.method(api, name).asType(handleType);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        };
    }

    private static final ClassValue<MethodHandle> JETTY_TRANSPORT = getter("org.eclipse.jetty.io.EndPoint", "getTransport");
    private static final ClassValue<MethodHandle> JETTY_END_POINT = getter("org.eclipse.jetty.io.Connection", "getEndPoint");
    private static final ClassValue<MethodHandle> JETTY_SSL_CONNECTION =
            getter("org.eclipse.jetty.io.ssl.SslConnection$SslEndPoint", "getSslConnection");
    private static final ClassValue<MethodHandle> JETTY_DECRYPTED_SSL_CONNECTION =
            getter("org.eclipse.jetty.io.ssl.SslConnection$DecryptedEndPoint", "getSslConnection");
    private static final ClassValue<MethodHandle> JETTY_SSL_ENGINE = getter("org.eclipse.jetty.io.ssl.SslConnection", "getSSLEngine");
    private static final ClassValue<MethodHandle> JETTY_CREATED = getter("org.eclipse.jetty.io.EndPoint", "getCreatedTimeStamp");
    private static final ClassValue<MethodHandle> JETTY_REQUEST_CONNECTION =
            getter("org.eclipse.jetty.server.Request", "getConnectionMetaData");
    private static final ClassValue<MethodHandle> JETTY_REQUEST_ID = getter("org.eclipse.jetty.server.Request", "getId");
    private static final ClassValue<MethodHandle> JETTY_STREAM_ID =
            getter("org.eclipse.jetty.http2.frames.StreamFrame", "getStreamId", TO_INT);
    /** Whether a Jetty 12 request's connection (its {@code ConnectionMetaData}) is an HTTP/2 one. */
    private static final ClassValue<Boolean> JETTY_HTTP2 = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return PublicApi.supertype(type, "org.eclipse.jetty.http2.HTTP2Connection") != null;
        }
    };
    private static final ClassValue<MethodHandle> TOMCAT_SOCKET = getter("org.apache.tomcat.util.net.SocketWrapperBase", "getSocket");
    private static final ClassValue<MethodHandle> TOMCAT_CHANNEL = getter("org.apache.tomcat.util.net.NioChannel", "getIOChannel");
    private static final ClassValue<MethodHandle> TOMCAT_HANDSHAKE_COMPLETE =
            getter("org.apache.tomcat.util.net.NioChannel", "isHandshakeComplete");
    private static final ClassValue<MethodHandle> TOMCAT_SSL_ENGINE = getter("org.apache.tomcat.util.net.SecureNioChannel", "getSslEngine");
    // The NIO2 connector's channels, the same methods on classes that share no supertype with NIO's
    private static final ClassValue<MethodHandle> TOMCAT_NIO2_CHANNEL = getter("org.apache.tomcat.util.net.Nio2Channel", "getIOChannel");
    private static final ClassValue<MethodHandle> TOMCAT_NIO2_HANDSHAKE_COMPLETE =
            getter("org.apache.tomcat.util.net.Nio2Channel", "isHandshakeComplete");
    private static final ClassValue<MethodHandle> TOMCAT_NIO2_SSL_ENGINE =
            getter("org.apache.tomcat.util.net.SecureNio2Channel", "getSslEngine");

    /** Tomcat's HTTP/2 stream id, {@code AbstractStream.getIdAsInt()} (package-private: reached by reflection). */
    private static final ClassValue<MethodHandle> TOMCAT_STREAM_ID = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                if (c.getName().equals("org.apache.coyote.http2.AbstractStream")) {
                    try {
                        java.lang.reflect.Method m = c.getDeclaredMethod("getIdAsInt");
                        m.setAccessible(true);
                        return java.lang.invoke.MethodHandles.lookup().unreflect(m).asType(TO_INT);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        return null;
                    }
                }
            }
            return null;
        }
    };

    private static final ClassValue<MethodHandle> UNDERTOW_SOURCE = getter("org.xnio.StreamConnection", "getSourceChannel");
    private static final ClassValue<MethodHandle> UNDERTOW_SSL_SESSION = getter("org.xnio.ssl.SslConnection", "getSslSession");
    private static final ClassValue<MethodHandle> UNDERTOW_CONNECTION = getter("io.undertow.server.HttpServerExchange", "getConnection");
    private static final ClassValue<MethodHandle> UNDERTOW_CHANNEL = getter("io.undertow.server.AbstractServerConnection", "getChannel");

    /** A field, private or not, of {@code owner} (a class of the server, named), as a (Object) Object getter; null if none. */
    private static ClassValue<MethodHandle> field(String owner, String name) {
        return new ClassValue<>() {
            @Override
            protected MethodHandle computeValue(Class<?> type) {
                for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                    if (c.getName().equals(owner)) {
                        try {
                            java.lang.reflect.Field f = c.getDeclaredField(name);
                            f.setAccessible(true);
                            return java.lang.invoke.MethodHandles.lookup().unreflectGetter(f).asType(TO_OBJECT);
                        } catch (ReflectiveOperationException | RuntimeException e) {
                            return null;
                        }
                    }
                }
                return null;
            }
        };
    }

    // Undertow's HTTP/2: a stream's Http2ServerConnection, its Http2Channel and that channel's StreamConnection
    private static final ClassValue<MethodHandle> UNDERTOW_H2_CHANNEL =
            field("io.undertow.server.protocol.http2.Http2ServerConnection", "channel");
    private static final ClassValue<MethodHandle> UNDERTOW_H2_RESPONSE =
            field("io.undertow.server.protocol.http2.Http2ServerConnection", "responseChannel");
    private static final ClassValue<MethodHandle> UNDERTOW_FRAMED_CONNECTION =
            field("io.undertow.server.protocol.framed.AbstractFramedChannel", "channel");
    private static final ClassValue<MethodHandle> UNDERTOW_H2_STREAM_ID =
            getter("io.undertow.protocols.http2.Http2StreamSinkChannel", "getStreamId", TO_INT);

    /**
     * Tomcat and Undertow: when each TLS connection opened (wall-clock ms, as {@code SSLSession.getCreationTime()}),
     * by its channel's identity hash in a small table (a slot reused by a later connection of the
     * same slot: that handshake is then reported full). Written on the acceptor thread before the
     * connection reaches a worker (Tomcat's own queues order the two).
     */
    private static final int TLS_SLOTS = 4096;
    private static final int[] TLS_CONN = new int[TLS_SLOTS];
    private static final long[] TLS_OPENED = new long[TLS_SLOTS];

    private static Object call(ClassValue<MethodHandle> getter, Object o) throws Throwable {
        MethodHandle h = o == null ? null : getter.get(o.getClass());
        return h == null ? null : (Object) h.invokeExact(o);
    }

    /** Jetty: a connection's or end point's socket channel, through the end points that wrap it (TLS); 0 if none. */
    static int jettyConn(Object connectionOrEndPoint) throws Throwable {
        Object t = connectionOrEndPoint;
        Object ep = call(JETTY_END_POINT, t);
        if (ep != null) {
            t = ep;
        }
        for (int i = 0; i < 4; i++) {
            MethodHandle h = t == null ? null : JETTY_TRANSPORT.get(t.getClass());
            if (h == null) {
                break;
            }
            t = (Object) h.invokeExact(t);
        }
        return t == null ? 0 : System.identityHashCode(t);
    }

    /** A socket channel was accepted (Jetty's {@code ServerConnector.accepted}, Tomcat's {@code NioEndpoint.setSocketOptions}). */
    public static void accepted(Object channel) {
        if (ServerTrace.on() && channel != null) {
            ServerTrace.accept(System.identityHashCode(channel));
        }
    }

    /** Jetty: a connection's network end point closes. */
    public static void jettyClosed(Object endPoint) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.close(jettyConn(endPoint));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Jetty: an {@code SslConnection} opens; the server now waits for the client's hello. */
    public static void jettyTlsOpen(Object sslConnection) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.tlsBegin(jettyConn(sslConnection));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Jetty: the handshake of an {@code SslConnection.SslEndPoint} (12) or {@code DecryptedEndPoint}
     * (9.4 to 11) succeeded. Resumed when the
     * session is older than the connection: a full handshake creates its session during the
     * handshake, a resumed one continues an earlier connection's (the JDK's TLS 1.3 resumption
     * copies the creation time of the session it resumes, as TLS 1.2's reuses the session).
     */
    public static void jettyTlsDone(Object sslEndPoint) {
        if (ServerTrace.on()) {
            try {
                Object connection = call(JETTY_SSL_CONNECTION, sslEndPoint); // 12
                if (connection == null) {
                    connection = call(JETTY_DECRYPTED_SSL_CONNECTION, sslEndPoint); // 9.4 to 11
                }
                SSLEngine engine = (SSLEngine) call(JETTY_SSL_ENGINE, connection);
                Object created = call(JETTY_CREATED, sslEndPoint);
                boolean resumed = engine != null && created instanceof Long c && engine.getSession().getCreationTime() < c;
                ServerTrace.tlsEnd(jettyConn(sslEndPoint), resumed);
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Jetty: {@code HttpConnection.onFillable} begins reading a connection. */
    public static void jettyRead(Object httpConnection) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.parseBegin(jettyConn(httpConnection));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Jetty 12: {@code HTTP2Connection.HTTP2Producer.produce()} begins reading (and parsing the
     * frames of) an HTTP/2 connection.
     */
    public static void jettyHttp2Read(Object http2Connection) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.parseBeginMultiplexed(jettyConn(http2Connection));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Jetty 12: {@code HTTP2ServerConnection.onNewStream} took a new stream's {@code HeadersFrame}:
     * a request's headers are parsed in the connection's read, or (stream 1, replayed by {@code
     * onOpen()}) the HTTP/1.1 request that upgraded the connection ({@code Upgrade: h2c}) was.
     */
    public static void jettyHttp2Headers(Object http2Connection, Object headersFrame) {
        if (ServerTrace.on()) {
            try {
                MethodHandle h = headersFrame == null ? null : JETTY_STREAM_ID.get(headersFrame.getClass());
                if (h != null) {
                    ServerTrace.streamRequest(jettyConn(http2Connection), (int) h.invokeExact(headersFrame));
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Jetty 12: {@code Server.handle(Request, Response, Callback)} begins. An HTTP/2 request's
     * service names its connection and stream (its thread may not be the one that parsed it, and
     * several streams of one connection are served at once); an HTTP/1 one's is the connection
     * its thread just parsed.
     */
    public static void jetty12Service(Object request) {
        if (ServerTrace.on()) {
            try {
                Object connection = call(JETTY_REQUEST_CONNECTION, request);
                if (connection != null && JETTY_HTTP2.get(connection.getClass())
                        && call(JETTY_REQUEST_ID, request) instanceof String id) {
                    ServerTrace.streamServiceBegin(jettyConn(connection), Integer.parseInt(id));
                    return;
                }
            } catch (Throwable e) {
                // unreadable: the service without its stream
            }
            ServerTrace.serviceBegin();
        }
    }

    /** Tomcat: a socket wrapper's channel; 0 if none. */
    static int tomcatConn(Object socketWrapper) throws Throwable {
        Object ch = tomcatIoChannel(call(TOMCAT_SOCKET, socketWrapper));
        return ch == null ? 0 : System.identityHashCode(ch);
    }

    /**
     * Tomcat: the JDK channel ({@code SocketChannel}, NIO2's {@code AsynchronousSocketChannel}) under
     * an {@code NioChannel} or {@code Nio2Channel}.
     */
    private static Object tomcatIoChannel(Object channel) throws Throwable {
        Object ch = call(TOMCAT_CHANNEL, channel);
        return ch != null ? ch : call(TOMCAT_NIO2_CHANNEL, channel);
    }

    /** Tomcat: {@code Http11Processor.service} begins reading a connection. */
    public static void tomcatRead(Object socketWrapper) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.parseBegin(tomcatConn(socketWrapper));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Tomcat: {@code SecureNioChannel.reset(SocketChannel, NioSocketWrapper)} (NIO2:
     * {@code SecureNio2Channel.reset(AsynchronousSocketChannel, SocketWrapperBase)}), in the accept: a TLS connection opens.
     */
    public static void tomcatTlsOpen(Object socketChannel) {
        if (ServerTrace.on() && socketChannel != null) {
            tlsOpened(System.identityHashCode(socketChannel));
        }
    }

    private static void tlsOpened(int c) {
        int slot = c & (TLS_SLOTS - 1);
        TLS_OPENED[slot] = System.currentTimeMillis();
        TLS_CONN[slot] = c;
        ServerTrace.tlsBegin(c);
    }

    /** Whether a session is older than the connection {@code c} (resumed); false if that connection's opening is unknown. */
    private static boolean resumed(int c, SSLSession session) {
        int slot = c & (TLS_SLOTS - 1);
        return session != null && TLS_CONN[slot] == c && session.getCreationTime() < TLS_OPENED[slot];
    }

    /**
     * Tomcat: whether a {@code SecureNioChannel}'s (or {@code SecureNio2Channel}'s) handshake was
     * already complete (true when unreadable or off).
     */
    public static boolean tomcatHandshakeComplete(Object secureChannel) {
        if (ServerTrace.on()) {
            try {
                Object complete = call(TOMCAT_HANDSHAKE_COMPLETE, secureChannel);
                if (complete == null) {
                    complete = call(TOMCAT_NIO2_HANDSHAKE_COMPLETE, secureChannel);
                }
                return !(complete instanceof Boolean b) || b;
            } catch (Throwable e) {
                return true;
            }
        }
        return true;
    }

    /**
     * Tomcat: a {@code SecureNioChannel}'s handshake completed. Resumed when the session is older
     * than the connection (as for Jetty).
     */
    public static void tomcatTlsDone(Object secureChannel) {
        if (ServerTrace.on()) {
            try {
                Object ch = tomcatIoChannel(secureChannel);
                if (ch == null) {
                    return;
                }
                int c = System.identityHashCode(ch);
                SSLEngine engine = (SSLEngine) call(TOMCAT_SSL_ENGINE, secureChannel);
                if (engine == null) {
                    engine = (SSLEngine) call(TOMCAT_NIO2_SSL_ENGINE, secureChannel);
                }
                ServerTrace.tlsEnd(c, resumed(c, engine == null ? null : engine.getSession()));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Tomcat: an HTTP/2 {@code Stream}'s id; 0 if unreadable. */
    private static int tomcatStreamId(Object stream) throws Throwable {
        MethodHandle h = stream == null ? null : TOMCAT_STREAM_ID.get(stream.getClass());
        return h == null ? 0 : (int) h.invokeExact(stream);
    }

    /**
     * Tomcat: {@code Http2UpgradeHandler.headersStart} (its socket wrapper): the parser begins a
     * HEADERS frame of an HTTP/2 connection (a new stream's request, or trailers).
     */
    public static void tomcatHttp2HeadersStart(Object socketWrapper) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.parseBeginMultiplexed(tomcatConn(socketWrapper));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Tomcat: {@code Http2UpgradeHandler.processStreamOnContainerThread(Stream)}: a stream's request
     * is ready to be served, its headers parsed in {@code headersEnd} or (stream 1 in {@code init})
     * the HTTP/1.1 request that upgraded the connection.
     */
    public static void tomcatHttp2Request(Object socketWrapper, Object stream) {
        if (ServerTrace.on()) {
            try {
                int id = tomcatStreamId(stream);
                if (id != 0) {
                    ServerTrace.streamRequest(tomcatConn(socketWrapper), id);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Tomcat: {@code StreamProcessor.service(SocketWrapperBase)}: an HTTP/2 stream's service, on a container thread. */
    public static void tomcatStreamService(Object socketWrapper, Object stream) {
        if (ServerTrace.on()) {
            try {
                int id = tomcatStreamId(stream);
                if (id != 0) {
                    ServerTrace.streamServiceBegin(tomcatConn(socketWrapper), id);
                    return;
                }
            } catch (Throwable e) {
                // unreadable: the service without its stream
            }
            ServerTrace.serviceBegin();
        }
    }

    /** Tomcat: a socket wrapper closes. */
    public static void tomcatClosed(Object socketWrapper) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.close(tomcatConn(socketWrapper));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: a connection's number, the identity hash of its (stable) source channel; 0 if none. */
    static int undertowConn(Object streamConnection) throws Throwable {
        Object source = call(UNDERTOW_SOURCE, streamConnection);
        return source == null ? 0 : System.identityHashCode(source);
    }

    /** Undertow: an exchange's HTTP/1.1 connection; 0 if none (HTTP/2, AJP). */
    static int undertowExchangeConn(Object exchange) throws Throwable {
        return undertowConn(call(UNDERTOW_CHANNEL, call(UNDERTOW_CONNECTION, exchange)));
    }

    /**
     * Undertow: {@code HttpOpenListener.handleEvent(StreamConnection, PooledByteBuffer)}: a plain
     * connection opens (a TLS one was reported by {@link #undertowTlsAccepted}: with HTTP/2 enabled
     * its ALPN listener hands it to this one only after the handshake).
     */
    public static void undertowAccepted(Object streamConnection) {
        if (ServerTrace.on() && streamConnection != null) {
            try {
                if (PublicApi.supertype(streamConnection.getClass(), "org.xnio.ssl.SslConnection") != null) {
                    return;
                }
                int c = undertowConn(streamConnection);
                if (c != 0) {
                    ServerTrace.accept(c);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Undertow: {@code UndertowAcceptingSslChannel.accept(StreamConnection, SSLEngine)} returned a
     * TLS connection: it is accepted, and its handshake begins (the server waits for the client's hello).
     */
    public static void undertowTlsAccepted(Object sslConnection) {
        if (ServerTrace.on() && sslConnection != null) {
            try {
                int c = undertowConn(sslConnection);
                if (c != 0) {
                    ServerTrace.accept(c);
                    tlsOpened(c);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: a connection's close listener runs. */
    public static void undertowClosed(Object streamConnection) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.close(undertowConn(streamConnection));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: the handshake of a TLS connection finished (resumed as for Tomcat). */
    public static void undertowTlsDone(Object sslConnection) {
        if (ServerTrace.on()) {
            try {
                int c = undertowConn(sslConnection);
                if (c != 0) {
                    ServerTrace.tlsEnd(c, resumed(c, (SSLSession) call(UNDERTOW_SSL_SESSION, sslConnection)));
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: {@code HttpReadListener} reads a connection's source channel. */
    public static void undertowRead(Object sourceChannel) {
        if (ServerTrace.on() && sourceChannel != null) {
            ServerTrace.parseBegin(System.identityHashCode(sourceChannel));
        }
    }

    /** Undertow: an {@code Http2Channel}'s connection (as {@link #undertowConn}); 0 if none. */
    static int undertowHttp2Conn(Object http2Channel) throws Throwable {
        return undertowConn(call(UNDERTOW_FRAMED_CONNECTION, http2Channel));
    }

    /** Whether a class is Undertow's {@code Http2Channel}. */
    private static final ClassValue<Boolean> UNDERTOW_HTTP2_CHANNEL = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return PublicApi.supertype(type, "io.undertow.protocols.http2.Http2Channel") != null;
        }
    };

    /**
     * Undertow: {@code AbstractFramedChannel.FrameCloseListener.handleEvent(CloseableChannel)}, a
     * side of a framed channel's connection closed: an HTTP/2 connection closes (also one
     * reached by ALPN, which has no HTTP/1.1 close listener; a second report of a close is ignored).
     */
    public static void undertowFramedClosed(Object framedChannel) {
        if (ServerTrace.on() && framedChannel != null) {
            try {
                if (UNDERTOW_HTTP2_CHANNEL.get(framedChannel.getClass())) {
                    ServerTrace.close(undertowHttp2Conn(framedChannel));
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: {@code Http2ReceiveListener.handleEvent(Http2Channel)} reads (and parses) a frame of an HTTP/2 connection. */
    public static void undertowHttp2Read(Object http2Channel) {
        if (ServerTrace.on()) {
            try {
                ServerTrace.parseBeginMultiplexed(undertowHttp2Conn(http2Channel));
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /**
     * Undertow: an {@code Http2ServerConnection} (one per stream) was made, a stream's request
     * ready: its headers parsed in {@code Http2ReceiveListener.handleEvent}, or (stream 1, in
     * {@code handleInitialRequest}) the HTTP/1.1 request that upgraded the connection; {0, 0} if not HTTP/2.
     */
    public static void undertowHttp2Request(Object http2ServerConnection) {
        if (ServerTrace.on()) {
            try {
                int id = undertowStreamId(http2ServerConnection);
                if (id != 0) {
                    ServerTrace.streamRequest(undertowHttp2Conn(call(UNDERTOW_H2_CHANNEL, http2ServerConnection)), id);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: the stream id of an {@code Http2ServerConnection}; 0 for any other connection. */
    private static int undertowStreamId(Object connection) throws Throwable {
        Object response = call(UNDERTOW_H2_RESPONSE, connection);
        MethodHandle h = response == null ? null : UNDERTOW_H2_STREAM_ID.get(response.getClass());
        return h == null ? 0 : (int) h.invokeExact(response);
    }

    /** Undertow: {@code Connectors.terminateResponse(HttpServerExchange)}: an HTTP/2 stream's response is complete. */
    public static void undertowResponseDone(Object exchange) {
        if (ServerTrace.on()) {
            try {
                Object connection = call(UNDERTOW_CONNECTION, exchange);
                int id = undertowStreamId(connection);
                if (id != 0) {
                    ServerTrace.streamDone(undertowHttp2Conn(call(UNDERTOW_H2_CHANNEL, connection)), id);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }

    /** Undertow: the root handler begins, on the thread that parsed the request or one it was dispatched to. */
    public static void undertowService(Object exchange) {
        if (ServerTrace.on()) {
            int c = 0;
            try {
                Object connection = call(UNDERTOW_CONNECTION, exchange);
                int id = undertowStreamId(connection);
                if (id != 0) {
                    ServerTrace.streamServiceBegin(undertowHttp2Conn(call(UNDERTOW_H2_CHANNEL, connection)), id);
                    return;
                }
                c = undertowExchangeConn(exchange);
            } catch (Throwable e) {
                // unreadable: the service without its connection
            }
            ServerTrace.serviceBegin(c);
        }
    }

    /** Undertow: an HTTP/1.1 exchange completed; its connection waits for the next request. */
    public static void undertowRequestDone(Object exchange) {
        if (ServerTrace.on()) {
            try {
                int c = undertowExchangeConn(exchange);
                if (c != 0) {
                    ServerTrace.requestDone(c);
                }
            } catch (Throwable e) {
                // unreadable: not traced
            }
        }
    }
}
