package io.qosweaver.agent.unit.jettyserver;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceSetUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * The trace's server level in Jetty 9.4 to 12 (checked on 9.4, 10, 11 and 12.0), one unit matching
 * by name. Jetty 12: accept in {@code ServerConnector.accepted(SocketChannel)}, close in
 * {@code SelectableChannelEndPoint.doClose()}, the TLS handshake from {@code SslConnection.onOpen()}
 * to {@code SslConnection.SslEndPoint.notifyHandshakeSucceeded(SSLEngine)} (called once, when
 * {@code handshakeSucceeded()}, itself called on every later read and write, moves the handshake to
 * succeeded), reads in {@code HttpConnection.onFillable()} (package {@code server.internal}) ended
 * early by {@code HttpConnection.RequestHandler.headerComplete()}, the service in
 * {@code Server.handle(Request, Response, Callback)}. Jetty 12's HTTP/2 (checked on 12.0, h2c and
 * h2 over TLS; accept, close and TLS are the connection's join points above): reads in
 * {@code HTTP2Connection.HTTP2Producer.produce()}, each new stream's headers in
 * {@code HTTP2ServerConnection.onNewStream(HTTP2Stream, HeadersFrame)}, the service tagged with the
 * stream from its request; after an {@code Upgrade: h2c} (checked on 12.0) the upgrading request,
 * parsed as HTTP/1.1, reaches {@code onNewStream} as stream 1 from {@code HTTP2ServerConnection.onOpen()},
 * outside a read of the connection (reported as the upgraded request). Jetty 9.4 to 11 share the accept,
 * {@code SslConnection.onOpen()} and (10, 11) {@code SelectableChannelEndPoint.doClose()}; their
 * own join points: close in {@code ChannelEndPoint.doClose()} (9.4), the handshake's end in
 * {@code SslConnection.DecryptedEndPoint.notifyHandshakeSucceeded(SSLEngine)} (the same
 * once-only call), reads in {@code server.HttpConnection.onFillable()} ended early by
 * {@code HttpChannelOverHttp.headerComplete()}, the service in {@code Server.handle(HttpChannel)}.
 */
public final class JettyServerUnit {
    private JettyServerUnit() {}

    private static final String CONNECTOR = "org.eclipse.jetty.server.ServerConnector";
    private static final String END_POINT = "org.eclipse.jetty.io.SelectableChannelEndPoint";
    private static final String SSL = "org.eclipse.jetty.io.ssl.SslConnection";
    private static final String SSL_END_POINT = "org.eclipse.jetty.io.ssl.SslConnection$SslEndPoint";
    private static final String HTTP = "org.eclipse.jetty.server.internal.HttpConnection";
    private static final String HTTP_HANDLER = "org.eclipse.jetty.server.internal.HttpConnection$RequestHandler";
    private static final String SERVER = "org.eclipse.jetty.server.Server";
    // Jetty 12's HTTP/2 (jetty-http2-server): accept, close, TLS and the service are the join points above
    private static final String H2_PRODUCER = "org.eclipse.jetty.http2.HTTP2Connection$HTTP2Producer";
    private static final String H2_SERVER_CONNECTION = "org.eclipse.jetty.http2.server.internal.HTTP2ServerConnection";
    // Jetty 9.4 to 11 (accept, SslConnection.onOpen and, in 10 and 11, SelectableChannelEndPoint
    // are the same join points as 12's)
    private static final String CHANNEL_END_POINT = "org.eclipse.jetty.io.ChannelEndPoint";
    private static final String DECRYPTED_END_POINT = "org.eclipse.jetty.io.ssl.SslConnection$DecryptedEndPoint";
    private static final String OLD_HTTP = "org.eclipse.jetty.server.HttpConnection";
    private static final String OLD_CHANNEL = "org.eclipse.jetty.server.HttpChannelOverHttp";

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return new AdviceSetUnit("jetty12 server level", named(CONNECTOR).or(named(END_POINT)).or(named(SSL))
                .or(named(SSL_END_POINT)).or(named(HTTP)).or(named(HTTP_HANDLER)).or(named(SERVER))
                .or(named(CHANNEL_END_POINT)).or(named(DECRYPTED_END_POINT)).or(named(OLD_HTTP)).or(named(OLD_CHANNEL))
                .or(named(H2_PRODUCER)).or(named(H2_SERVER_CONNECTION)), stats)
                .at(isDeclaredBy(named(CONNECTOR)).and(named("accepted")).and(takesArguments(1))
                        .and(takesArgument(0, named("java.nio.channels.SocketChannel"))), JettyServerAdvice.Accepted.class)
                .at(isDeclaredBy(named(END_POINT)).and(named("doClose")).and(takesArguments(0)), JettyServerAdvice.Closed.class)
                .at(isDeclaredBy(named(SSL)).and(named("onOpen")).and(takesArguments(0)), JettyServerAdvice.TlsOpen.class)
                .at(isDeclaredBy(named(SSL_END_POINT)).and(named("notifyHandshakeSucceeded")).and(takesArguments(1)),
                        JettyServerAdvice.TlsDone.class)
                .at(isDeclaredBy(named(HTTP)).and(named("onFillable")).and(takesArguments(0)), JettyServerAdvice.Read.class)
                .at(isDeclaredBy(named(HTTP_HANDLER)).and(named("headerComplete")).and(takesArguments(0)),
                        JettyServerAdvice.HeadersDone.class)
                .at(isDeclaredBy(named(SERVER)).and(named("handle")).and(takesArguments(3))
                        .and(takesArgument(0, named("org.eclipse.jetty.server.Request")))
                        .and(takesArgument(2, named("org.eclipse.jetty.util.Callback"))), JettyServerAdvice.Service12.class)
                .at(isDeclaredBy(named(H2_PRODUCER)).and(named("produce")).and(takesArguments(0)), JettyServerAdvice.Http2Read.class)
                .at(isDeclaredBy(named(H2_SERVER_CONNECTION)).and(named("onNewStream")).and(takesArguments(2))
                        .and(takesArgument(1, named("org.eclipse.jetty.http2.frames.HeadersFrame"))),
                        JettyServerAdvice.Http2Headers.class)
                .at(isDeclaredBy(named(CHANNEL_END_POINT)).and(named("doClose")).and(takesArguments(0)),
                        JettyServerAdvice.Closed.class)
                .at(isDeclaredBy(named(DECRYPTED_END_POINT)).and(named("notifyHandshakeSucceeded")).and(takesArguments(1)),
                        JettyServerAdvice.TlsDone.class)
                .at(isDeclaredBy(named(OLD_HTTP)).and(named("onFillable")).and(takesArguments(0)), JettyServerAdvice.Read.class)
                .at(isDeclaredBy(named(OLD_CHANNEL)).and(named("headerComplete")).and(takesArguments(0)),
                        JettyServerAdvice.HeadersDone.class)
                .at(isDeclaredBy(named(SERVER)).and(named("handle")).and(takesArguments(1))
                        .and(takesArgument(0, named("org.eclipse.jetty.server.HttpChannel"))), JettyServerAdvice.Service.class);
    }
}
