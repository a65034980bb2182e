package io.qosweaver.platform;

/** A native priority or affinity call failed; carries the errno when there is one (0 otherwise). */
public class NativePriorityException extends Exception {
    private static final long serialVersionUID = 1L;
    /** Linux errno values a caller distinguishes. */
    public static final int EPERM = 1, ESRCH = 3, EACCES = 13;

    private final int errno;

    public NativePriorityException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }

    /** The process may not make this change (raising a priority without the privilege). */
    public boolean permissionDenied() {
        return errno == EPERM || errno == EACCES;
    }
}
