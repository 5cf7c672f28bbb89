package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;

/**
 * The whole path of one 8-byte put on inmem: PtlPut from rank 0 (SEND_START), header and deposit at
 * rank 1 (PUT_START, copy, PUT_END), send completion (SEND_END), and PtlEQGet of all four events.
 * Run with {@code -prof gc}: {@code gc.alloc.rate.norm} should be 0 B/op.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PutPathBenchmark {
    static final int PORTAL = 3;
    static final long BITS = 0x1234_5678L;

    @Param({"inmem"})
    public String transport;

    private Arena arena;
    private TwoRanks ranks;
    private Portals sender;
    private Portals receiver;
    private MdHandle sendMd;
    private ProcessId target;
    private EqHandle sendEq;
    private EqHandle recvEq;
    private final Event event = new Event();

    @Setup
    public void setUp() throws Exception {
        arena = Arena.ofShared();
        ranks = TwoRanks.open(transport);
        sender = ranks.portals(0);
        receiver = ranks.portals(1);
        recvEq = receiver.eqAlloc(ranks.ni(1), 64);
        sendEq = sender.eqAlloc(ranks.ni(0), 64);
        ranks.appendReceive(1, PORTAL, BITS, arena.allocate(64, 64), recvEq);
        sendMd = sender.mdBind(ranks.ni(0), MemoryDescriptor.of(arena.allocate(8, 8)).withEventQueue(sendEq));
        target = ranks.id(1);
        put();
    }

    @TearDown
    public void tearDown() {
        ranks.close();
        arena.close();
    }

    @Benchmark
    public long put() {
        sender.put(sendMd, AckRequest.NOACK_REQ, target, PORTAL, 0, BITS, 0L, 0L);
        Events.get(receiver, recvEq, event, EventKind.PUT_START);
        Events.get(receiver, recvEq, event, EventKind.PUT_END);
        long seq = event.sequence();
        Events.get(sender, sendEq, event, EventKind.SEND_START);
        Events.get(sender, sendEq, event, EventKind.SEND_END);
        return seq + event.sequence();
    }
}
