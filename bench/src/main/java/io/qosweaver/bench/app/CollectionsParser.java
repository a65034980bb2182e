package io.qosweaver.bench.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Parses {@code /status/collections}: either a bare array of records or an object with a
 * {@code collections} array. Tolerant: unknown fields are ignored, snake_case and camelCase
 * both work, a record without a start is skipped, a missing duration means "still running".
 */
public final class CollectionsParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private CollectionsParser() {
    }

    public static List<CollectionRecord> parse(String body) throws IOException {
        JsonNode root = JSON.readTree(body);
        JsonNode arr = root;
        if (root != null && root.isObject()) {
            arr = root.get("collections");
        }
        List<CollectionRecord> out = new ArrayList<>();
        if (arr == null || !arr.isArray()) {
            return out;
        }
        for (JsonNode n : arr) {
            Long start = longField(n, "start_ms", "startMs", "start");
            if (start == null) {
                continue;
            }
            Long duration = longField(n, "duration_ms", "durationMs", "duration");
            Long readings = longField(n, "readings");
            Boolean missed = boolField(n, "missed_deadline", "missedDeadline", "missed");
            Long period = longField(n, "period_ms", "periodMs");
            Long late = longField(n, "late_ms", "lateMs");
            out.add(new CollectionRecord(start, duration, readings == null ? null : readings.intValue(), missed, period,
                    late));
        }
        out.sort(Comparator.comparingLong(CollectionRecord::startMs));
        return out;
    }

    private static Long longField(JsonNode n, String... names) {
        for (String name : names) {
            JsonNode v = n.get(name);
            if (v != null && v.isNumber()) {
                return v.asLong();
            }
            if (v != null && v.isTextual()) {
                try {
                    return (long) Double.parseDouble(v.asText());
                } catch (NumberFormatException ignored) {
                    // not a number: try the next name
                }
            }
        }
        return null;
    }

    private static Boolean boolField(JsonNode n, String... names) {
        for (String name : names) {
            JsonNode v = n.get(name);
            if (v != null && (v.isBoolean() || v.isTextual())) {
                return v.isBoolean() ? v.asBoolean() : Boolean.parseBoolean(v.asText());
            }
        }
        return null;
    }
}
