package org.portals3j.bench;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
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
 * A 1 MiB put on inmem (put from rank 0, PtlEQGet of PUT_START/PUT_END at rank 1 and of
 * SEND_START/SEND_END at rank 0) against the copy it contains: {@code MemorySegment.copy} of 1 MiB
 * between two native segments. GB/s = 1048.576 / (µs per op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class BandwidthBenchmark {
    static final int PORTAL = 5;
    static final long BITS = 0xB17E_5L;
    static final int SIZE = 1 << 20;

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
    private MemorySegment source;
    private MemorySegment destination;
    private final Event event = new Event();

    @Setup
    public void setUp() throws Exception {
        arena = Arena.ofShared();
        source = arena.allocate(SIZE, 64).fill((byte) 0x5A);
        destination = arena.allocate(SIZE, 64);
        ranks = TwoRanks.open(transport);
        sender = ranks.portals(0);
        receiver = ranks.portals(1);
        recvEq = receiver.eqAlloc(ranks.ni(1), 64);
        sendEq = sender.eqAlloc(ranks.ni(0), 64);
        ranks.appendReceive(1, PORTAL, BITS, arena.allocate(SIZE, 64), recvEq);
        sendMd = sender.mdBind(ranks.ni(0), MemoryDescriptor.of(arena.allocate(SIZE, 64).fill((byte) 0xA5))
                .withEventQueue(sendEq));
        target = ranks.id(1);
        put();
        if (event.mlength() != SIZE) {
            throw new IllegalStateException("the put deposited " + event.mlength() + " bytes, not " + SIZE);
        }
    }

    @TearDown
    public void tearDown() {
        ranks.close();
        arena.close();
    }

    @Benchmark
    public long put() {
        sender.put(sendMd, AckRequest.NOACK_REQ, target, PORTAL, 0, BITS, 0L, 0L);
        Events.get(sender, sendEq, event, EventKind.SEND_START);
        Events.get(sender, sendEq, event, EventKind.SEND_END);
        Events.get(receiver, recvEq, event, EventKind.PUT_START);
        Events.get(receiver, recvEq, event, EventKind.PUT_END);
        return event.mlength();
    }

    @Benchmark
    public MemorySegment segmentCopy() {
        MemorySegment.copy(source, 0L, destination, 0L, SIZE);
        return destination;
    }
}
