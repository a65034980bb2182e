package io.qosweaver.model.pointcut;

/**
 * A pointcut the parser cannot read. {@link #column()} is 1-based within the pointcut text, so the
 * policy loader can add it to the column where the pointcut starts in the file.
 */
public final class PointcutSyntaxException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int column;
    private final String problem;

    public PointcutSyntaxException(String problem, int column) {
        super("column " + column + ": " + problem);
        this.problem = problem;
        this.column = column;
    }

    public int column() {
        return column;
    }

    public String problem() {
        return problem;
    }
}
