package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The Jetty 12 integration's helper: {@code org.eclipse.jetty.server.Server.handle(Request,
 * Response, Callback)} calls {@link #enter} on the thread that handles the request, right after
 * Jetty parsed its request line and headers, before any handler (the servlet layer of ee8, ee9 and
 * ee10, or a core {@code Handler} with no servlet at all). It reads the core
 * {@code org.eclipse.jetty.server.Request}: {@code getMethod()}, {@code getHttpURI().getPath()},
 * {@code Request.getLocalPort(request)} and {@code getHeaders().get(name)}.
 */
public final class Jetty12Requests {
    private Jetty12Requests() {}

    private static final String API_TYPE = "org.eclipse.jetty.server.Request";

    private static final ClassValue<RequestAccess> API = RequestAccess.perClass(API_TYPE, api -> {
        MethodHandle uri = PublicApi.method(api, "getHttpURI");
        MethodHandle headers = PublicApi.method(api, "getHeaders");
        return new RequestAccess(PublicApi.method(api, "getMethod"),
                MethodHandles.filterReturnValue(uri, PublicApi.method(uri.type().returnType(), "getPath")),
                PublicApi.method(api, "getLocalPort", api),
                MethodHandles.filterArguments(PublicApi.method(headers.type().returnType(), "get", String.class),
                        0, headers));
    });

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object request) {
        return RequestAccess.enter(request, API);
    }
}
