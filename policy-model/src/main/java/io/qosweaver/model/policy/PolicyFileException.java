package io.qosweaver.model.policy;

/**
 * A policy file the agent refuses, with the place to fix it: {@code FILE:LINE[:COLUMN]: problem}.
 */
public final class PolicyFileException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String file;
    private final int line;
    private final int column;
    private final String problem;

    public PolicyFileException(String file, int line, int column, String problem) {
        super(file + (line > 0 ? ":" + line : "") + (line > 0 && column > 0 ? ":" + column : "") + ": " + problem);
        this.file = file;
        this.line = line;
        this.column = column;
        this.problem = problem;
    }

    public String file() {
        return file;
    }

    /** 1-based; 0 when the problem is not tied to a line (for example an unreadable file). */
    public int line() {
        return line;
    }

    /** 1-based; 0 when unknown. */
    public int column() {
        return column;
    }

    public String problem() {
        return problem;
    }
}
