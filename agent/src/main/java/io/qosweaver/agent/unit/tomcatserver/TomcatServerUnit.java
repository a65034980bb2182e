package io.qosweaver.agent.unit.tomcatserver;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.returns;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceSetUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * The trace's server level in Tomcat's NIO and NIO2 connectors (checked on 11.0, 10.1 and 9.0). NIO: accept in
 * {@code NioEndpoint.setSocketOptions(SocketChannel)}, close in {@code NioSocketWrapper.doClose()},
 * the JSSE TLS handshake from {@code SecureNioChannel.reset(SocketChannel, NioSocketWrapper)} (the
 * accept gives the channel its socket) to the {@code SecureNioChannel.handshake(boolean, boolean)}
 * that returns 0 (done) while the channel was not yet complete, reads in
 * {@code Http11Processor.service(SocketWrapperBase)} ended early by
 * {@code Http11InputBuffer.parseHeaders()}, the service in {@code CoyoteAdapter.service}. Tomcat
 * finishes the handshake before it parses, so a TLS connection's first parsing does not hold the
 * handshake (Jetty's does). NIO2 ({@code Http11Nio2Protocol}): accept in
 * {@code Nio2Endpoint.setSocketOptions(AsynchronousSocketChannel)}, close in
 * {@code Nio2SocketWrapper.doClose()}, the handshake from
 * {@code SecureNio2Channel.reset(AsynchronousSocketChannel, SocketWrapperBase)} to the
 * {@code SecureNio2Channel.handshake()} that returns 0 while not yet complete; reads and the
 * service are NIO's. HTTP/2 ({@code Http2Protocol}: h2c by {@code Upgrade: h2c} or prior
 * knowledge, h2 over TLS by ALPN; checked on 11.0, 10.1 and 9.0 by upgrade and over TLS, on 11.0
 * by prior knowledge): each HEADERS frame parsed from
 * {@code Http2UpgradeHandler.headersStart(int, boolean)} to {@code headersEnd(int, boolean)}, a
 * stream's request in {@code Http2UpgradeHandler.processStreamOnContainerThread(Stream)} (called
 * by {@code headersEnd} for a new stream, not for trailers; by {@code init} for stream 1, the
 * request that upgraded the connection), its service in {@code StreamProcessor.service(SocketWrapperBase)}
 * (the connection's socket wrapper; the stream from the processor's {@code stream} field).
 */
public final class TomcatServerUnit {
    private TomcatServerUnit() {}

    private static final String ENDPOINT = "org.apache.tomcat.util.net.NioEndpoint";
    private static final String WRAPPER = "org.apache.tomcat.util.net.NioEndpoint$NioSocketWrapper";
    private static final String SECURE = "org.apache.tomcat.util.net.SecureNioChannel";
    private static final String PROCESSOR = "org.apache.coyote.http11.Http11Processor";
    private static final String INPUT = "org.apache.coyote.http11.Http11InputBuffer";
    private static final String ADAPTER = "org.apache.catalina.connector.CoyoteAdapter";
    // NIO2 (Http11Nio2Protocol): its own endpoint, wrapper and TLS channel; the processor and adapter are shared
    private static final String NIO2_ENDPOINT = "org.apache.tomcat.util.net.Nio2Endpoint";
    private static final String NIO2_WRAPPER = "org.apache.tomcat.util.net.Nio2Endpoint$Nio2SocketWrapper";
    private static final String NIO2_SECURE = "org.apache.tomcat.util.net.SecureNio2Channel";

    // HTTP/2 (Http2Protocol, h2c and h2 over TLS); Http2AsyncUpgradeHandler's overrides call these
    private static final String H2_HANDLER = "org.apache.coyote.http2.Http2UpgradeHandler";
    private static final String H2_PROCESSOR = "org.apache.coyote.http2.StreamProcessor";

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return new AdviceSetUnit("tomcat server level", named(ENDPOINT).or(named(WRAPPER)).or(named(SECURE)).or(named(PROCESSOR))
                .or(named(INPUT)).or(named(ADAPTER))
                .or(named(NIO2_ENDPOINT)).or(named(NIO2_WRAPPER)).or(named(NIO2_SECURE))
                .or(named(H2_HANDLER)).or(named(H2_PROCESSOR)), stats)
                .at(isDeclaredBy(named(ENDPOINT)).and(named("setSocketOptions")).and(takesArguments(1))
                        .and(takesArgument(0, named("java.nio.channels.SocketChannel"))), TomcatServerAdvice.Accepted.class)
                .at(isDeclaredBy(named(WRAPPER)).and(named("doClose")).and(takesArguments(0)), TomcatServerAdvice.Closed.class)
                .at(isDeclaredBy(named(SECURE)).and(named("reset")).and(takesArguments(2))
                        .and(takesArgument(0, named("java.nio.channels.SocketChannel"))), TomcatServerAdvice.TlsOpen.class)
                .at(isDeclaredBy(named(SECURE)).and(named("handshake")).and(takesArguments(2))
                        .and(takesArgument(0, boolean.class)).and(takesArgument(1, boolean.class)).and(returns(int.class)),
                        TomcatServerAdvice.TlsStep.class)
                .at(isDeclaredBy(named(PROCESSOR)).and(named("service")).and(takesArguments(1))
                        .and(takesArgument(0, named("org.apache.tomcat.util.net.SocketWrapperBase"))),
                        TomcatServerAdvice.Read.class)
                .at(isDeclaredBy(named(INPUT)).and(named("parseHeaders")).and(takesArguments(0)).and(returns(boolean.class)),
                        TomcatServerAdvice.HeadersDone.class)
                .at(isDeclaredBy(named(ADAPTER)).and(named("service")).and(takesArguments(2))
                        .and(takesArgument(0, named("org.apache.coyote.Request"))), TomcatServerAdvice.Service.class)
                .at(isDeclaredBy(named(NIO2_ENDPOINT)).and(named("setSocketOptions")).and(takesArguments(1))
                        .and(takesArgument(0, named("java.nio.channels.AsynchronousSocketChannel"))),
                        TomcatServerAdvice.Accepted.class)
                .at(isDeclaredBy(named(NIO2_WRAPPER)).and(named("doClose")).and(takesArguments(0)), TomcatServerAdvice.Closed.class)
                .at(isDeclaredBy(named(NIO2_SECURE)).and(named("reset")).and(takesArguments(2))
                        .and(takesArgument(0, named("java.nio.channels.AsynchronousSocketChannel"))), TomcatServerAdvice.TlsOpen.class)
                // handshake(), not handshakeInternal(boolean): that one recurses, and each level would report the end
                .at(isDeclaredBy(named(NIO2_SECURE)).and(named("handshake")).and(takesArguments(0)).and(returns(int.class)),
                        TomcatServerAdvice.TlsStep.class)
                .at(isDeclaredBy(named(H2_HANDLER)).and(named("headersStart")).and(takesArguments(2))
                        .and(takesArgument(0, int.class)), TomcatServerAdvice.Http2HeadersStart.class)
                .at(isDeclaredBy(named(H2_HANDLER)).and(named("headersEnd")).and(takesArguments(2))
                        .and(takesArgument(0, int.class)), TomcatServerAdvice.Http2HeadersEnd.class)
                .at(isDeclaredBy(named(H2_HANDLER)).and(named("processStreamOnContainerThread")).and(takesArguments(1))
                        .and(takesArgument(0, named("org.apache.coyote.http2.Stream"))), TomcatServerAdvice.Http2Request.class)
                .at(isDeclaredBy(named(H2_PROCESSOR)).and(named("service")).and(takesArguments(1))
                        .and(takesArgument(0, named("org.apache.tomcat.util.net.SocketWrapperBase"))),
                        TomcatServerAdvice.Http2Service.class);
    }
}
