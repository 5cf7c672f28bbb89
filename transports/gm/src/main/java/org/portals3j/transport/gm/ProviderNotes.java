package org.portals3j.transport.gm;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.portals3j.transport.Availability;

/**
 * What {@code portals info} says about each libfabric provider gm can run over: whether it works here, and what
 * libfabric 1.17's provider does not do (gm-libfabric.md sections 2.3 and 2.4), with what gm does about it.
 */
final class ProviderNotes {
    private ProviderNotes() {
    }

    /** One line per provider, in the order of {@code gm.provider}'s values. */
    static List<String> lines(Function<String, Availability> availability) {
        List<String> lines = new ArrayList<>();
        lines.add(line("tcp", "tcp;ofi_rxm, the default", availability, ""));
        lines.add(line("shm", "shm", availability, "processes of one host; where CMA is blocked (containers"
                + " without CAP_SYS_PTRACE, libfabric issue #5495) set FI_SHM_DISABLE_CMA=1"));
        lines.add(line("udp", "udp;ofi_rxd", availability, "rxd never reports a dead peer and has no wait fd: gm's"
                + " keep-alives (gm.keepaliveMillis) find failed peers, and it waits by a bounded back-off"));
        lines.add(line("net", "net", availability, "gm waits on it by a bounded back-off, never on its fd:"
                + " libfabric 1.17's fi_trywait on net says 'sleep' whatever net holds (xnet_trywait returns 0;"
                + " libfabric issue #8947, fixed in 1.18.1 by PR #8981) and messages net has already read off a"
                + " socket raise nothing on that fd, so such a sleep lasted until a timer (the kit's token ring:"
                + " 7-11 s, 3-4 s without it)"));
        return lines;
    }

    private static String line(String name, String provider, Function<String, Availability> availability,
                               String note) {
        Availability a = availability.apply(name);
        String head = "gm.provider=" + name + " (" + provider + "): ";
        if (!a.available()) {
            return head + "no: " + a.reason();
        }
        return head + "yes" + (note.isEmpty() ? "" : "; " + note);
    }
}
