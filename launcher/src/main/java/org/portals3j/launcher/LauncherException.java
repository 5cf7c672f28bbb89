package org.portals3j.launcher;

/** A configuration error found before a job starts: one line that says what to do, and an exit status. */
final class LauncherException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;

    LauncherException(String message) {
        this(message, PortalsCommand.USAGE_ERROR);
    }

    LauncherException(String message, int status) {
        super(message);
        this.status = status;
    }

    int status() {
        return status;
    }
}
