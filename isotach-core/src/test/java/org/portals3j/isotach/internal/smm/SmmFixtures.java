package org.portals3j.isotach.internal.smm;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.SharedMemoryObserver;
import org.portals3j.isotach.SharedRegion;

/** Small shared pieces of the SMM tests: configurations, a recording responder, a recording observer. */
final class SmmFixtures {
    private SmmFixtures() {
    }

    static IsotachConfig config(int readCap, SharedRegion... regions) {
        return IsotachConfig.builder().readCap(readCap).sharedRegions(List.of(regions)).build();
    }

    static SharedRegion region(long base, int words, int... copyset) {
        return new SharedRegion(base, words, copyset);
    }

    /** A response the engine was asked to send. */
    record Sent(int reader, int slot, long value, long pulse) {
    }

    /** A responder that records what it sends and refuses while {@link #refuse} is positive (counting down). */
    static final class Responder implements SharedMemory.ReadResponder {
        final List<Sent> sent = new ArrayList<>();
        int refuse;
        int refusals;

        @Override
        public boolean respond(int reader, int readSlot, long value, long pulse) {
            if (refuse > 0) {
                refuse--;
                refusals++;
                return false;
            }
            sent.add(new Sent(reader, readSlot, value, pulse));
            return true;
        }

        /** Refuses everything from now on (until {@link #accept()}). */
        Responder refuseAll() {
            refuse = Integer.MAX_VALUE;
            return this;
        }

        Responder accept() {
            refuse = 0;
            return this;
        }
    }

    /** One observer record. */
    record Seen(int copyHost, long sequence, long pulse, int source, int kind, long address, long operand,
            long value) {
        @Override
        public String toString() {
            return SharedMemoryObserver.kindName(kind) + "[host " + copyHost + " seq " + sequence + " pulse " + pulse
                    + " src " + source + " addr " + address + " op " + operand + " val " + value + "]";
        }
    }

    static final class Observer implements SharedMemoryObserver {
        final List<Seen> seen = new ArrayList<>();

        @Override
        public void executed(int copyHost, long sequence, long pulse, int source, int kind, long address,
                long operand, long value) {
            seen.add(new Seen(copyHost, sequence, pulse, source, kind, address, operand, value));
        }

        Seen last() {
            return seen.get(seen.size() - 1);
        }

        /** The (kind, source, operand) of the changes this host applied, in execution order. */
        List<String> changes() {
            return seen.stream().filter(s -> s.kind != READ).sorted((a, b) -> Long.compare(a.sequence, b.sequence))
                    .map(s -> SharedMemoryObserver.kindName(s.kind) + "/" + s.source + "/" + s.operand).toList();
        }
    }

    static int[] ints(int... v) {
        return Arrays.copyOf(v, v.length);
    }
}
