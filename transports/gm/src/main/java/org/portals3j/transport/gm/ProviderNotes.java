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
        lines.add(line("net", "net", availability, "slow, and not in CI: the kit's 3-rank token ring took 7 s to"
                + " over 10 s here (2 s on tcp) and failed its 10 s limit in 7 runs of 8; FI_NET_MAX_SAVED=64"
                + " (default 4, which fi_info -e -p net says may have to be raised to prevent hangs) helps but does"
                + " not cure it"));
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
