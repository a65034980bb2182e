package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The Tomcat integration's helper: {@code org.apache.catalina.connector.CoyoteAdapter.service} and
 * {@code asyncDispatch} call {@link #enter} on the thread that handles the request, once Coyote has
 * parsed its request line and headers and before Catalina maps it to a context or servlet. It
 * reads {@code org.apache.coyote.Request}, whose API is the same in Tomcat 9, 10 and 11:
 * {@code method().toString()}, {@code requestURI().toString()} (Tomcat caches both strings, which
 * it makes later anyway), {@code getLocalPort()} and {@code getHeader(name)}.
 */
public final class TomcatRequests {
    private TomcatRequests() {}

    private static final String API_TYPE = "org.apache.coyote.Request";

    private static final ClassValue<RequestAccess> API = RequestAccess.perClass(API_TYPE, api -> {
        MethodHandle method = PublicApi.method(api, "method");
        MethodHandle text = PublicApi.method(method.type().returnType(), "toString");
        return new RequestAccess(MethodHandles.filterReturnValue(method, text),
                MethodHandles.filterReturnValue(PublicApi.method(api, "requestURI"), text),
                PublicApi.method(api, "getLocalPort"),
                PublicApi.method(api, "getHeader", String.class));
    });

    /** Enters the request's task class, if any; the advice passes the result to {@link RequestTaskClasses#exit}. */
    public static boolean enter(Object request) {
        return RequestAccess.enter(request, API);
    }
}
