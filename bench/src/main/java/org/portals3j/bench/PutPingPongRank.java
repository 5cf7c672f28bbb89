package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
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
 * A rank of the Java Put ping-pong that {@link ShimPingPong} compares with native-shim's
 * {@code bench_pingpong.c}: the same portal, MD options and events, one Java call where C makes one
 * Portals call. Arguments and output lines are the C program's:
 * {@code ITERATIONS SIZE WARMUP}; rank 0 prints {@code pingpong size=.. iterations=.. half_rtt_p50_ns=..
 * half_rtt_p99_ns=..} and {@code upcall getuid_ns=..} (here: the Java call alone, no upcall).
 */
public final class PutPingPongRank {
    private static final int PORTAL = 14;

    private PutPingPongRank() {
    }

    public static void main(String[] args) throws Exception {
        int iterations = Integer.parseInt(args[0]);
        int size = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        try (JobContext job = JobRuntime.join(); Arena arena = Arena.ofShared()) {
            Portals p = Portals.create(job.job(), job.transport());
            p.init();
            NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            EqHandle eq = p.eqAlloc(ni, 64);
            int rank = job.rank();
            JobMember other = job.job().peers().member(rank == 0 ? 1 : 0);
            ProcessId peer = new ProcessId(other.nid(), other.pid());
            MemorySegment in = arena.allocate(size);
            MemorySegment out = arena.allocate(size);
            MeHandle me = p.meAttach(ni, PORTAL, peer, 1, 0, Unlink.RETAIN, InsertPosition.AFTER);
            p.mdAttach(me, MemoryDescriptor.of(in).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                    .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
            MdHandle md = p.mdBind(ni, MemoryDescriptor.of(out));
            Event ev = new Event();
            long[] rtt = new long[iterations];
            job.barrier();
            for (int i = -warmup; i < iterations; i++) {
                out.set(ValueLayout.JAVA_BYTE, 0, (byte) i);
                out.set(ValueLayout.JAVA_BYTE, size - 1, (byte) (i + 1));
                if (rank == 0) {
                    long start = System.nanoTime();
                    p.put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, 1, 0, 0);
                    awaitPut(p, eq, ev);
                    if (i >= 0) {
                        rtt[i] = System.nanoTime() - start;
                    }
                    check(in, i, size);
                } else {
                    awaitPut(p, eq, ev);
                    check(in, i, size);
                    p.put(md, AckRequest.NOACK_REQ, peer, PORTAL, 0, 1, 0, 0);
                }
            }
            if (rank == 0) {
                Arrays.sort(rtt);
                System.out.println("pingpong size=" + size + " iterations=" + iterations + " half_rtt_p50_ns="
                        + rtt[iterations / 2] / 2 + " half_rtt_p99_ns=" + rtt[(int) (iterations * 0.99)] / 2);
                int calls = 200_000;
                long sink = 0;
                for (int i = 0; i < calls; i++) {
                    sink += p.getUid(ni);
                }
                long start = System.nanoTime();
                for (int i = 0; i < calls; i++) {
                    sink += p.getUid(ni);
                }
                System.out.printf("upcall getuid_ns=%.1f%n", (double) (System.nanoTime() - start) / calls);
                if (sink == 42) {
                    System.out.println();
                }
            }
            job.barrier();
            p.fini();
        }
    }

    private static void awaitPut(Portals p, EqHandle eq, Event ev) {
        while (true) {
            ReturnCode rc = p.eqWait(eq, ev);
            if (rc != ReturnCode.OK) {
                throw new IllegalStateException("PtlEQWait returned " + rc);
            }
            if (ev.type() == EventKind.PUT_END) {
                return;
            }
        }
    }

    private static void check(MemorySegment in, int i, int size) {
        if (in.get(ValueLayout.JAVA_BYTE, 0) != (byte) i || in.get(ValueLayout.JAVA_BYTE, size - 1) != (byte) (i + 1)) {
            throw new IllegalStateException("round " + i + ": the message has the wrong bytes");
        }
    }
}
