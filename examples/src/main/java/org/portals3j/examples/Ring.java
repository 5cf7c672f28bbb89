package org.portals3j.examples;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;
import org.portals3j.transport.JobMember;

/**
 * A token goes round the ring of ranks {@code laps} times (argument, default 3), one Portals Put per hop;
 * every rank adds one. Rank 0 checks that the token came back as {@code laps * size}.
 *
 * <p>Memory given to Portals comes from a shared arena: the network (another thread) writes into it.
 *
 * <pre>./portals run -n 4 -- org.portals3j.examples.Ring 3</pre>
 */
public final class Ring {
    static final int PORTAL = 1;
    static final long MATCH_BITS = 0x52494E47L; // "RING"

    private Ring() {
    }

    public static void main(String[] args) throws Exception {
        int laps = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        if (laps < 1) {
            System.err.println("usage: Ring [laps >= 1]");
            System.exit(2);
        }
        try (JobContext job = JobRuntime.join(); Arena arena = Arena.ofShared()) {
            int rank = job.rank();
            int size = job.size();
            Portals portals = Portals.create(job.job(), job.transport());
            portals.init();
            NiHandle ni = portals.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle eq = portals.eqAlloc(ni, 64);
            MemorySegment in = arena.allocate(8);
            MemorySegment out = arena.allocate(8);
            MeHandle me = portals.meAttach(ni, PORTAL, ProcessId.ANY, MATCH_BITS, 0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            portals.mdAttach(me, MemoryDescriptor.of(in).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                    .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle send = portals.mdBind(ni, MemoryDescriptor.of(out));
            JobMember nextMember = job.job().peers().member((rank + 1) % size);
            ProcessId next = new ProcessId(nextMember.nid(), nextMember.pid());
            job.barrier(); // every rank's match entry is in place before the first put

            if (rank == 0) {
                forward(portals, send, out, next, 1);
            }
            Event event = new Event();
            for (int lap = 1; lap <= laps; lap++) {
                long token = awaitPut(portals, eq, event, in);
                // one line, one write: ranks that share a terminal (mpirun, srun) never split each other's lines
                System.out.println(String.format("rank %d of %d: lap %d, token %d from rank %d", rank, size, lap,
                        token, job.job().peers().rankOfNid(event.initiator().nid())));
                if (rank == 0) {
                    if (token != (long) lap * size) {
                        System.err.printf("rank 0: lap %d brought token %d, expected %d%n", lap, token, lap * size);
                        System.exit(1);
                    }
                    if (lap == laps) {
                        System.out.println(String.format("ring of %d ranks: %d laps, final token %d", size, laps,
                                token));
                        break;
                    }
                }
                forward(portals, send, out, next, token + 1);
            }
            job.barrier(); // nobody leaves while a put to it may still be in flight
            portals.fini();
        }
    }

    private static void forward(Portals portals, MdHandle send, MemorySegment out, ProcessId next, long token) {
        out.set(ValueLayout.JAVA_LONG, 0, token);
        portals.put(send, AckRequest.NOACK_REQ, next, PORTAL, 0, MATCH_BITS, 0L, 0L);
    }

    /** Waits for the next PUT_END and returns the token it deposited. */
    private static long awaitPut(Portals portals, EqHandle eq, Event event, MemorySegment in) {
        while (true) {
            ReturnCode rc = portals.eqWait(eq, event);
            if (rc != ReturnCode.OK) {
                throw new IllegalStateException("PtlEQWait: " + rc);
            }
            if (event.type() == EventKind.PUT_END) {
                return in.get(ValueLayout.JAVA_LONG, 0);
            }
        }
    }
}
