package io.qosweaver.model.policy;

import java.util.List;

/**
 * Which requests a task class takes (its {@code request:} key): every condition given must hold;
 * an empty list or a port of 0 places no condition.
 *
 * @param paths   the request path (without query, as sent: percent-encoding is not decoded), by
 *                servlet-mapping rules: {@code /x} exact, {@code /x/*} prefix (also {@code /x}
 *                itself), {@code *.ext} extension, {@code /*} every path; any of them
 * @param methods HTTP methods, case-sensitive as HTTP defines them ({@code GET}, {@code POST}); any of them
 * @param headers header conditions, all of them
 * @param port    the local port the request came in on, 0 for any
 */
public record RequestSelector(List<String> paths, List<String> methods, List<HeaderCondition> headers, int port) {

    public RequestSelector {
        paths = List.copyOf(paths);
        methods = List.copyOf(methods);
        headers = List.copyOf(headers);
    }

    /**
     * A header that must be present with a value: exactly {@code value}, or matching the regular
     * expression {@code regex} (the whole value, as {@link java.util.regex.Matcher#matches}); one
     * of the two is null. Header names are case-insensitive, as in HTTP.
     */
    public record HeaderCondition(String name, String value, String regex) {}
}
