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
 * An 8-byte put that must find its match entry at the END of a match list of {@code listLength}
 * exact-match entries (distinct match bits, each with an MD), on inmem: put from rank 0, then
 * {@code PtlEQGet} of PUT_START and PUT_END on rank 1. The goal: 10,000 entries cost at most twice 10.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MatchingBenchmark {
    static final int PORTAL = 7;
    /** Tag-like match bits: a fixed context in the high bits, the entry's index in the low bits. */
    static final long CONTEXT = 0x00C0_FFEEL << 32;

    @Param({"10", "10000"})
    public int listLength;

    @Param({"inmem"})
    public String transport;

    private Arena arena;
    private TwoRanks ranks;
    private Portals sender;
    private Portals receiver;
    private MdHandle sendMd;
    private ProcessId target;
    private EqHandle eq;
    private long targetBits;
    private final Event event = new Event();

    @Setup
    public void setUp() throws Exception {
        arena = Arena.ofShared();
        ranks = TwoRanks.open(transport);
        sender = ranks.portals(0);
        receiver = ranks.portals(1);
        eq = receiver.eqAlloc(ranks.ni(1), 64);
        MemorySegment recv = arena.allocate(64, 64);
        MdHandle last = null;
        for (int i = 0; i < listLength; i++) {
            last = ranks.appendReceive(1, PORTAL, CONTEXT | i, recv, eq);
        }
        targetBits = CONTEXT | (listLength - 1);
        sendMd = sender.mdBind(ranks.ni(0), MemoryDescriptor.of(arena.allocate(8, 8)));
        target = ranks.id(1);
        // The put must land in the last entry's MD.
        put();
        if (event.mdHandleValue() != last.value() || event.matchBits() != targetBits) {
            throw new IllegalStateException("the put matched " + event + ", not the last entry " + last);
        }
    }

    @TearDown
    public void tearDown() {
        ranks.close();
        arena.close();
    }

    @Benchmark
    public long put() {
        sender.put(sendMd, AckRequest.NOACK_REQ, target, PORTAL, 0, targetBits, 0L, 0L);
        Events.get(receiver, eq, event, EventKind.PUT_START);
        Events.get(receiver, eq, event, EventKind.PUT_END);
        return event.sequence();
    }
}
