package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * How to read one server's request object: its method, path, local port and headers, as method
 * handles composed from the server's public API and adapted to take the request as Object. Built
 * once per request class (in a {@code ClassValue}), so that a request costs a few direct handle
 * calls and no lookup.
 */
final class RequestAccess implements RequestTaskClasses.HeaderReader {
    private static final MethodType STRING = MethodType.methodType(String.class, Object.class);
    private static final MethodType INT = MethodType.methodType(int.class, Object.class);
    private static final MethodType HEADER = MethodType.methodType(String.class, Object.class, String.class);

    private final MethodHandle method;
    private final MethodHandle path;
    private final MethodHandle localPort;
    private final MethodHandle header;

    /**
     * @param method    (request) String
     * @param path      (request) String: the request path, without query
     * @param localPort (request) int
     * @param header    (request, name) String: the first value, or null
     */
    RequestAccess(MethodHandle method, MethodHandle path, MethodHandle localPort, MethodHandle header) {
        this.method = method.asType(STRING);
        this.path = path.asType(STRING);
        this.localPort = localPort.asType(INT);
        this.header = header.asType(HEADER);
    }

    String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    String path(Object request) throws Throwable {
        return (String) path.invokeExact(request);
    }

    int localPort(Object request) throws Throwable {
        return (int) localPort.invokeExact(request);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        return (String) header.invokeExact(request, name);
    }

    /** Builds the access from the server's API type found among the request class's supertypes. */
    interface Builder {
        RequestAccess build(Class<?> api) throws ReflectiveOperationException;
    }

    /**
     * Per request class, the access built from its supertype named {@code apiType}; null for a
     * class without that supertype or whose API could not be read (its requests run unmanaged).
     */
    static ClassValue<RequestAccess> perClass(String apiType, Builder builder) {
        return new ClassValue<>() {
            @Override
            protected RequestAccess computeValue(Class<?> type) {
                Class<?> api = PublicApi.supertype(type, apiType);
                if (api == null) {
                    return null;
                }
                try {
                    return builder.build(api);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        };
    }

    /**
     * What a server integration's helper does on entry: enters the request's task class, if any
     * (the advice passes the result to {@link RequestTaskClasses#exit}). Never throws: a request
     * that cannot be read runs unmanaged.
     */
    static boolean enter(Object request, ClassValue<RequestAccess> api) {
        return request != null && enter(request, api.get(request.getClass()));
    }

    /** As {@link #enter(Object, ClassValue)}, with the access already found ({@code a} may be null). */
    static boolean enter(Object request, RequestAccess a) {
        try {
            return a != null && RequestTaskClasses.requestRows() && RequestTaskClasses.enter(a.method(request),
                    a.path(request), a.localPort(request), null, request, a);
        } catch (Throwable t) {
            return false;
        }
    }
}
