package org.portals3j.bench;

import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.portals3j.lapi.CompletionHandler;
import org.portals3j.lapi.HeaderHandler;
import org.portals3j.lapi.LapiConfig;
import org.portals3j.lapi.LapiContext;
import org.portals3j.lapi.LapiCounter;
import org.portals3j.lapi.RetFlag;
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
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;

/**
 * The floor under LAPI's inmem latency goal: the CPU one 8 B hop costs on one thread, sending to itself on inmem (no
 * second thread, no hand-off), for a Put and its two events (the Put ping-pong's hop), for a Put whose MD also logs
 * its SEND events, taken (what an active message's staging buffer needs before it is reused), and for an Amsend and
 * Waitcntr (polling mode: the same thread dispatches); then AmsendPingPong's 8 B hops on inmem in the same run.
 */
public final class AmsendHopCost {
    static final int ROUNDS = 7;

    private AmsendHopCost() {
    }

    /**
     * Nanoseconds per hop on one thread (medians of {@link #ROUNDS} rounds), and the 2-thread ping-pong's half round
     * trips at 8 B in microseconds.
     */
    record Result(double putNanos, double putSendEventsNanos, double amsendNanos, double putHopMicros,
                  double amsendHopMicros) {
        /** What a hop spends besides its own instructions: the hand-off between the two threads. */
        double handOffNanos() {
            return putHopMicros * 1e3 - putNanos;
        }

        /** The fastest Amsend hop a layer that stages its sends could have: its Put's events, the hand-off. */
        double floorNanos() {
            return putSendEventsNanos + handOffNanos();
        }

        /** What the layer itself adds per hop (both sides), on one thread. */
        double layerNanos() {
            return amsendNanos - putSendEventsNanos;
        }

        /** What a 1.3x goal leaves the layer per hop once the floor is paid. */
        double roomNanos(double goal) {
            return goal * putHopMicros * 1e3 - floorNanos();
        }
    }

    public static void main(String[] args) throws Exception {
        boolean quick = Arrays.asList(args).contains("--quick");
        print(measure(quick ? 20_000 : 1_000_000, quick ? 200 : 20_000, quick), System.out);
    }

    static Result measure(int perRound, int pingPongIterations, boolean quick) throws Exception {
        double[] costs = selfCosts(perRound);
        AmsendPingPong.Result pp = AmsendPingPong.measure(new AmsendPingPong.Options("inmem",
                pingPongIterations, RetFlag.SEND_REPLY, false, quick));
        AmsendPingPong.Row row = pp.rows().get(0);
        return new Result(costs[0], costs[1], costs[2], row.putP50(), row.amsendP50());
    }

    /** The three loops on one rank of an inmem job, alternating in rounds; the medians in nanoseconds. */
    private static double[] selfCosts(int n) throws Exception {
        double[][] rounds = new double[3][ROUNDS];
        try (Arena arena = Arena.ofShared()) {
            LocalJob.run("inmem", Job.local(1), IdleMode.BACKOFF, Map.of(), context -> {
                Portals p = Portals.create(context.job(), context.transport(), PortalsConfig.DEFAULT);
                p.init();
                NiHandle ni = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
                EqHandle eq = p.eqAlloc(ni, 1024);
                EqHandle sendEq = p.eqAlloc(ni, 1024);
                MemorySegment recv = arena.allocate(4096, 64);
                MemorySegment send = arena.allocate(4096, 64);
                MeHandle me = p.meAttach(ni, PingPong.PORTAL, ProcessId.ANY, PingPong.MATCH_BITS, 0L, Unlink.RETAIN,
                        InsertPosition.AFTER);
                p.mdAttach(me, MemoryDescriptor.of(recv).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                        .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
                MdHandle plain = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, 8)));
                // an active message's packet: a 56-byte header and 8 B of data, from an MD that logs its sends
                MdHandle staged = p.mdBind(ni, MemoryDescriptor.of(send.asSlice(0, 64)).withEventQueue(sendEq));
                ProcessId self = p.getId(ni);
                Event event = new Event();
                LapiContext lapi = LapiContext.init(p, LapiConfig.DEFAULT.withInterruptMode(false));
                LapiCounter arrived = lapi.newCounter();
                CompletionHandler empty = (c, info) -> { };
                HeaderHandler handler = (c, uhdr, info) -> {
                    info.setCompletion(empty, null);
                    info.setRetFlags(RetFlag.SEND_REPLY);
                    return recv;
                };
                long hdrHdl = lapi.address(handler);
                long cntr = arrived.address();
                for (int r = -2; r < ROUNDS; r++) { // two unmeasured rounds warm every path
                    long t0 = System.nanoTime();
                    for (int i = 0; i < n; i++) {
                        p.put(plain, AckRequest.NOACK_REQ, self, PingPong.PORTAL, 0, PingPong.MATCH_BITS, 0L, 0L);
                        Events.waitPutEnd(p, eq, event, 8);
                    }
                    long t1 = System.nanoTime();
                    for (int i = 0; i < n; i++) {
                        p.put(staged, AckRequest.NOACK_REQ, self, PingPong.PORTAL, 0, PingPong.MATCH_BITS, 0L, 0L);
                        Events.waitPutEnd(p, eq, event, 64);
                        Events.get(p, sendEq, event, EventKind.SEND_START);
                        Events.get(p, sendEq, event, EventKind.SEND_END);
                    }
                    long t2 = System.nanoTime();
                    for (int i = 0; i < n; i++) {
                        lapi.amsend(0, hdrHdl, null, 0, send, 8, cntr, null, null);
                        lapi.waitcntr(arrived, 1);
                    }
                    long t3 = System.nanoTime();
                    if (r >= 0) {
                        rounds[0][r] = (t1 - t0) / (double) n;
                        rounds[1][r] = (t2 - t1) / (double) n;
                        rounds[2][r] = (t3 - t2) / (double) n;
                    }
                }
                lapi.term();
                p.fini();
            });
        }
        double[] medians = new double[3];
        for (int k = 0; k < 3; k++) {
            Arrays.sort(rounds[k]);
            medians[k] = rounds[k][ROUNDS / 2];
        }
        return medians;
    }

    static void print(Result r, PrintStream out) {
        out.println("AmsendHopCost: one 8 B hop on inmem, ns of one thread's CPU (sending to itself, medians of "
                + ROUNDS + " rounds)");
        out.printf(Locale.ROOT, "put, PUT_START and PUT_END taken:                       %7.1f ns%n", r.putNanos());
        out.printf(Locale.ROOT, "the same from an MD that logs its sends, all 4 taken:   %7.1f ns%n",
                r.putSendEventsNanos());
        out.printf(Locale.ROOT, "LAPI_Amsend and LAPI_Waitcntr (polling mode):           %7.1f ns%n", r.amsendNanos());
        out.printf(Locale.ROOT, "AmsendPingPong on inmem, 8 B half round trip p50: Put %.3f us, Amsend %.3f us"
                + " (%.2fx)%n", r.putHopMicros(), r.amsendHopMicros(), r.amsendHopMicros() / r.putHopMicros());
        out.printf(Locale.ROOT, "hand-off between the threads (Put hop - its CPU):       %7.1f ns%n",
                r.handOffNanos());
        out.printf(Locale.ROOT, "floor of an Amsend hop (staged put + hand-off):         %7.1f ns = %.2fx the Put"
                + " hop%n", r.floorNanos(), r.floorNanos() / (r.putHopMicros() * 1e3));
        out.printf(Locale.ROOT, "what the layer adds per hop now (Amsend - staged put):  %7.1f ns%n", r.layerNanos());
        out.printf(Locale.ROOT, "what a 1.3x goal leaves the layer per hop:              %7.1f ns%n",
                r.roomNanos(1.3));
    }
}
