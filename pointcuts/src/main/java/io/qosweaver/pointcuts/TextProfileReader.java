package io.qosweaver.pointcuts;

import io.qosweaver.model.signature.Signatures;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The plain-text profile, for people and tests. One join point per line:
 *
 * <pre>
 * line      := time_ns [' '+ '@' thread] ' '+ caller ' '+ callee
 * time_ns   := decimal digits (a non-negative long)
 * thread    := decimal digits (a long; 1 when absent)
 * caller, callee := a signature of {@link Signatures}: it ends at its first ')'
 * </pre>
 *
 * A signature's own spaces are unambiguous because no signature contains {@code ')'} before its
 * end: the caller is everything from its first character up to the first {@code ')'}, the callee
 * likewise after it, and only white space may follow. Blank lines and lines whose first non-blank
 * character is {@code #} are ignored. A malformed line is a {@link ProfileFormatException} naming
 * the file and the line number.
 */
public final class TextProfileReader {
    /** The thread of a line without {@code @thread}. */
    public static final long DEFAULT_THREAD = 1;

    private TextProfileReader() {}

    public static void read(Path file, ProfileSink sink) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            read(file.toString(), r, sink);
        }
    }

    public static void read(String source, Reader reader, ProfileSink sink) throws IOException {
        BufferedReader in = reader instanceof BufferedReader b ? b : new BufferedReader(reader, 1 << 16);
        Map<String, String> canonical = new HashMap<>();
        long lineNo = 0;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            lineNo++;
            int i = skipWs(line, 0);
            if (i == line.length() || line.charAt(i) == '#') {
                continue;
            }
            int start = i;
            while (i < line.length() && line.charAt(i) >= '0' && line.charAt(i) <= '9') {
                i++;
            }
            if (i == start || i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                throw ProfileFormatException.atLine(source, lineNo,
                        "expected '<time_ns> [@thread] <caller> <callee>', the line must start with a time stamp in nanoseconds: " + line.strip());
            }
            long time = parseLong(line, start, i, source, lineNo, "time stamp");
            i = skipWs(line, i);
            long thread = DEFAULT_THREAD;
            if (i < line.length() && line.charAt(i) == '@') {
                int ts = ++i;
                while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
                    i++;
                }
                thread = parseLong(line, ts, i, source, lineNo, "thread id after '@'");
                i = skipWs(line, i);
            }
            int callerEnd = line.indexOf(')', i);
            if (i == line.length() || callerEnd < 0) {
                throw ProfileFormatException.atLine(source, lineNo, "missing caller signature 'RET TYPE.NAME(PARAMS)'");
            }
            String caller = signature(line.substring(i, callerEnd + 1), canonical, source, lineNo, "caller");
            i = skipWs(line, callerEnd + 1);
            int calleeEnd = line.indexOf(')', i);
            if (i == line.length() || calleeEnd < 0) {
                throw ProfileFormatException.atLine(source, lineNo, "missing callee signature 'RET TYPE.NAME(PARAMS)' after the caller");
            }
            String callee = signature(line.substring(i, calleeEnd + 1), canonical, source, lineNo, "callee");
            if (skipWs(line, calleeEnd + 1) != line.length()) {
                throw ProfileFormatException.atLine(source, lineNo,
                        "unexpected text after the callee signature: '" + line.substring(calleeEnd + 1).strip() + "'");
            }
            sink.joinPoint(time, thread, caller, callee);
        }
    }

    private static String signature(String raw, Map<String, String> cache, String source, long lineNo, String role)
            throws ProfileFormatException {
        String c = cache.get(raw);
        if (c == null) {
            try {
                c = Signatures.canonicalize(raw);
            } catch (IllegalArgumentException e) {
                throw ProfileFormatException.atLine(source, lineNo, "bad " + role + ": " + e.getMessage());
            }
            cache.put(raw, c);
        }
        return c;
    }

    private static long parseLong(String line, int from, int to, String source, long lineNo, String what)
            throws ProfileFormatException {
        try {
            return Long.parseLong(line, from, to, 10);
        } catch (NumberFormatException e) {
            throw ProfileFormatException.atLine(source, lineNo, "bad " + what + ": '" + line.substring(from, to) + "'");
        }
    }

    private static int skipWs(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** One line of this format, for writers of test and example profiles. */
    public static String line(JoinPoint jp) {
        return jp.timeNanos() + (jp.threadId() == DEFAULT_THREAD ? "" : " @" + jp.threadId())
                + ' ' + jp.caller() + ' ' + jp.callee();
    }
}
