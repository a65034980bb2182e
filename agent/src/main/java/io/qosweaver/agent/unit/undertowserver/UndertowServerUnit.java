package io.qosweaver.agent.unit.undertowserver;

import static net.bytebuddy.matcher.ElementMatchers.declaresField;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceSetUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * The trace's server level in Undertow 2's HTTP/1.1 listener (checked on 2.3), plain and TLS:
 * accept in {@code HttpOpenListener.handleEvent(StreamConnection, PooledByteBuffer)} (plain) and
 * {@code UndertowAcceptingSslChannel.accept(StreamConnection, SSLEngine)} (TLS, where its handshake
 * begins; with HTTP/2 enabled the ALPN listener reaches {@code HttpOpenListener} only after the
 * handshake), close in {@code AbstractServerConnection.CloseSetter.handleEvent(StreamConnection)},
 * the TLS handshake's end in {@code UndertowSslConnection.HandshakeCallback.run()}, reads in
 * {@code HttpReadListener.handleEventWithNoRunningRequest} ended early by
 * {@code HttpTransferEncoding.setupRequest} (called once the headers are parsed), the service in
 * {@code Connectors.executeRootHandler} (on the IO thread and again on the worker a request is
 * dispatched to), and the request's end, where its connection's keep-alive idle begins, in
 * {@code HttpReadListener.exchangeComplete(HttpServerExchange)}. A connection is the identity hash
 * of its {@code StreamConnection}'s source channel, which every one of these reaches. HTTP/2
 * ({@code ENABLE_HTTP2}; checked on 2.3: h2c by {@code Upgrade: h2c} and by prior
 * knowledge, h2 over TLS): reads in
 * {@code Http2ReceiveListener.handleEvent(Http2Channel)}, each stream's request in the
 * {@code Http2ServerConnection} constructor (one per stream; from {@code handleInitialRequest}
 * for the upgrading request, stream 1), its service in {@code Connectors.executeRootHandler} (the
 * stream and connection read from the exchange's {@code Http2ServerConnection}), its completion in
 * {@code Connectors.terminateResponse(HttpServerExchange)}, the close in
 * {@code AbstractFramedChannel.FrameCloseListener.handleEvent(CloseableChannel)} (an h2 connection
 * reached by ALPN has no HTTP/1.1 close listener). The connection from the
 * {@code Http2Channel}'s {@code StreamConnection}, the same as its HTTP/1.1 or TLS accept's.
 */
public final class UndertowServerUnit {
    private UndertowServerUnit() {}

    private static final String OPEN = "io.undertow.server.protocol.http.HttpOpenListener";
    private static final String TLS_ACCEPT = "io.undertow.protocols.ssl.UndertowAcceptingSslChannel";
    private static final String CLOSE = "io.undertow.server.AbstractServerConnection$CloseSetter";
    private static final String HANDSHAKE = "io.undertow.protocols.ssl.UndertowSslConnection$HandshakeCallback";
    private static final String READ = "io.undertow.server.protocol.http.HttpReadListener";
    private static final String ENCODING = "io.undertow.server.protocol.http.HttpTransferEncoding";
    private static final String CONNECTORS = "io.undertow.server.Connectors";
    private static final String STREAM = "org.xnio.StreamConnection";
    private static final String EXCHANGE = "io.undertow.server.HttpServerExchange";

    // HTTP/2 (UndertowOptions.ENABLE_HTTP2: h2c by Upgrade: h2c, h2 over TLS by ALPN)
    private static final String H2_RECEIVE = "io.undertow.server.protocol.http2.Http2ReceiveListener";
    private static final String H2_CONNECTION = "io.undertow.server.protocol.http2.Http2ServerConnection";
    private static final String FRAMED_CLOSE = "io.undertow.server.protocol.framed.AbstractFramedChannel$FrameCloseListener";

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return new AdviceSetUnit("undertow server level", named(OPEN).or(named(TLS_ACCEPT)).or(named(CLOSE)).or(named(HANDSHAKE)).or(named(READ))
                .or(named(ENCODING)).or(named(CONNECTORS)).or(named(H2_RECEIVE)).or(named(H2_CONNECTION))
                .or(named(FRAMED_CLOSE)), stats)
                .at(isDeclaredBy(named(OPEN)).and(named("handleEvent")).and(takesArguments(2))
                        .and(takesArgument(0, named(STREAM))), UndertowServerAdvice.Accepted.class)
                .at(isDeclaredBy(named(TLS_ACCEPT)).and(named("accept")).and(takesArguments(2))
                        .and(takesArgument(0, named(STREAM))).and(takesArgument(1, named("javax.net.ssl.SSLEngine"))),
                        UndertowServerAdvice.TlsAccepted.class)
                .at(isDeclaredBy(named(CLOSE)).and(named("handleEvent")).and(takesArguments(1))
                        .and(takesArgument(0, named(STREAM))), UndertowServerAdvice.Closed.class)
                .at(isDeclaredBy(named(HANDSHAKE).and(declaresField(named("this$0")))).and(named("run")).and(takesArguments(0)),
                        UndertowServerAdvice.TlsDone.class)
                .at(isDeclaredBy(named(READ)).and(named("handleEventWithNoRunningRequest")).and(takesArguments(1)),
                        UndertowServerAdvice.Read.class)
                .at(isDeclaredBy(named(ENCODING)).and(named("setupRequest")).and(takesArguments(1))
                        .and(takesArgument(0, named(EXCHANGE))), UndertowServerAdvice.HeadersDone.class)
                .at(isDeclaredBy(named(CONNECTORS)).and(named("executeRootHandler")).and(takesArguments(2))
                        .and(takesArgument(1, named(EXCHANGE))), UndertowServerAdvice.Service.class)
                .at(isDeclaredBy(named(READ)).and(named("exchangeComplete")).and(takesArguments(1))
                        .and(takesArgument(0, named(EXCHANGE))), UndertowServerAdvice.RequestDone.class)
                .at(isDeclaredBy(named(H2_RECEIVE)).and(named("handleEvent")).and(takesArguments(1))
                        .and(takesArgument(0, named("io.undertow.protocols.http2.Http2Channel"))), UndertowServerAdvice.Http2Read.class)
                .at(isDeclaredBy(named(H2_CONNECTION)).and(isConstructor()).and(takesArguments(5))
                        .and(takesArgument(0, named("io.undertow.protocols.http2.Http2Channel"))), UndertowServerAdvice.Http2Request.class)
                .at(isDeclaredBy(named(CONNECTORS)).and(named("terminateResponse")).and(takesArguments(1))
                        .and(takesArgument(0, named(EXCHANGE))), UndertowServerAdvice.ResponseDone.class)
                .at(isDeclaredBy(named(FRAMED_CLOSE).and(declaresField(named("this$0")))).and(named("handleEvent"))
                        .and(takesArguments(1)).and(takesArgument(0, named("org.xnio.channels.CloseableChannel"))),
                        UndertowServerAdvice.Http2Closed.class);
    }
}
