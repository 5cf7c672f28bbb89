package org.portals3j.checks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * An application on the class path using the library modules from the module path ({@link ModulePathTest} starts
 * it): prints the transports it finds, the outcome of one put over each, and whether it can use an internal class.
 */
public final class ModulePathProbe {
    private static final int PORTAL = 4;
    private static final long MATCH_BITS = 0x4D4F44L;

    private ModulePathProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("probe in " + ModulePathProbe.class.getModule());
        System.out.println("providers " + Transports.all().stream()
                .map(p -> p.name() + "@" + p.getClass().getModule().getName()).toList());
        for (String transport : List.of("inmem", "udp")) {
            System.out.println("put over " + transport + ": " + putOnce(transport));
        }
        try {
            Class.forName("org.portals3j.transport.internal.SpinLock").getConstructor().newInstance();
            System.out.println("internal package usable");
        } catch (IllegalAccessException e) {
            System.out.println("internal package refused: " + e.getMessage());
        }
    }

    /** One put of 16 bytes from rank 0 to rank 1 of a job on {@code transport}; "delivered" if they arrive. */
    private static String putOnce(String transport) throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            Portals a = Portals.create(job, endpoints.get(0));
            Portals b = Portals.create(job, endpoints.get(1));
            a.init();
            b.init();
            NiHandle na = a.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            NiHandle nb = b.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle eqb = b.eqAlloc(nb, 16);
            MemorySegment target = arena.allocate(16);
            MeHandle me = b.meAttach(nb, PORTAL, ProcessId.ANY, MATCH_BITS, 0, Unlink.RETAIN, InsertPosition.AFTER);
            b.mdAttach(me, MemoryDescriptor.of(target).withOptions(MdOption.OP_PUT).withEventQueue(eqb),
                    Unlink.RETAIN, Unlink.RETAIN);
            MemorySegment source = arena.allocate(16);
            for (int i = 0; i < 16; i++) {
                source.set(ValueLayout.JAVA_BYTE, i, (byte) (i + 1));
            }
            MdHandle md = a.mdBind(na, MemoryDescriptor.of(source));
            a.put(md, AckRequest.NOACK_REQ, b.getId(nb), PORTAL, 0, MATCH_BITS, 0, 0);
            Event e = new Event();
            do {
                ReturnCode rc = b.eqWait(eqb, e);
                if (rc != ReturnCode.OK) {
                    return "PtlEQWait returned " + rc;
                }
            } while (e.type() != EventKind.PUT_END);
            boolean intact = MemorySegment.mismatch(source, 0, 16, target, 0, 16) < 0;
            a.fini();
            b.fini();
            return intact ? "delivered" : "corrupted";
        } finally {
            endpoints.forEach(Transport::close);
        }
    }
}
