package org.portals3j.transport.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The operating-system user id of this process: the default Portals user id of a rank. Internal: shared by the
 * job model ({@code Job}) and the job runtime, not for applications.
 */
public final class OsUser {
    private static final int UID = lookup();

    private OsUser() {
    }

    /** The real user id of this process (the owner of {@code /proc/self}), or 0 where that is not known. */
    public static int uid() {
        return UID;
    }

    private static int lookup() {
        try {
            // The owner of /proc/self is the process's real user.
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (uid instanceof Integer i) {
                return i;
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            // not Linux: fall through
        }
        return 0;
    }
}
