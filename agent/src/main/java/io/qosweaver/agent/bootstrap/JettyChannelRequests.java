package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The Jetty 9.4, 10 and 11 integration's helper: {@code org.eclipse.jetty.server.Server.handle(
 * HttpChannel)} and {@code handleAsync(HttpChannel)} call {@link #enter} on the thread that handles
 * the request, after Jetty parsed it and before any handler. It reads the channel's
 * {@code getRequest()}, Jetty's {@code Request}, through its public methods {@code getMethod()},
 * {@code getRequestURI()}, {@code getLocalPort()} and {@code getHeader(name)} (the same in the three
 * versions, whether the servlet API under them is {@code javax} or {@code jakarta}).
 */
public final class JettyChannelRequests {
    private JettyChannelRequests() {}

    private static final String API_TYPE = "org.eclipse.jetty.server.HttpChannel";

    private static final ClassValue<RequestAccess> API = RequestAccess.perClass(API_TYPE, api -> {
        MethodHandle request = PublicApi.method(api, "getRequest");
        Class<?> r = request.type().returnType();
        return new RequestAccess(
                MethodHandles.filterReturnValue(request, PublicApi.method(r, "getMethod")),
                MethodHandles.filterReturnValue(request, PublicApi.method(r, "getRequestURI")),
                MethodHandles.filterReturnValue(request, PublicApi.method(r, "getLocalPort")),
                MethodHandles.filterArguments(PublicApi.method(r, "getHeader", String.class), 0, request));
    });

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object channel) {
        return RequestAccess.enter(channel, API);
    }
}
