package io.qosweaver.pointcuts;

import java.io.IOException;

/**
 * A profile that cannot be read: the message names the file and the line (plain text) or the
 * byte offset (binary) where reading stopped, and what was expected there.
 */
public final class ProfileFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    public ProfileFormatException(String message) {
        super(message);
    }

    static ProfileFormatException atLine(String source, long line, String what) {
        return new ProfileFormatException(source + ":" + line + ": " + what);
    }

    static ProfileFormatException atOffset(String source, long offset, String what) {
        return new ProfileFormatException(source + ": at byte offset " + offset + ": " + what);
    }
}
