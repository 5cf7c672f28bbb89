package org.portals3j.launcher;

import java.util.Map;

/** How an exit status reads: Java reports a process killed by signal {@code s} as status {@code 128 + s}. */
final class Signals {
    private static final Map<Integer, String> NAMES = Map.ofEntries(Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"),
            Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"), Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"),
            Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"), Map.entry(10, "SIGUSR1"), Map.entry(11, "SIGSEGV"),
            Map.entry(12, "SIGUSR2"), Map.entry(13, "SIGPIPE"), Map.entry(14, "SIGALRM"), Map.entry(15, "SIGTERM"));

    private Signals() {
    }

    /** "exited with status 3" or "was killed by signal 9 (SIGKILL)". */
    static String describe(int status) {
        if (status > 128 && status < 128 + 65) {
            int signal = status - 128;
            String name = NAMES.get(signal);
            return "was killed by signal " + signal + (name == null ? "" : " (" + name + ")");
        }
        return "exited with status " + status;
    }
}
