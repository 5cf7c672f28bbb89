package org.portals3j.isotach.internal.host;

import java.util.Arrays;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The host's ordering module (the report's IOM, Isotach report §7.3.5, pp. 66-69): buckets what the SIU delivers by
 * pulse and, at a pulse's end, checks the count and queues its entries for delivery in sort-vector (or sender) order,
 * then its notices.
 */
final class OrderingModule extends CacheLinePadding {
    /** The subtype of an isochron marker's bucket entry (its slot is the isochron id). */
    private static final int ISOCHRON_MARKER = 0;
    /** The subtype of a self-isochron's references waiting for the next pulse (SMM). */
    private static final int SELF_REFERENCES = -1;

    private final int me;
    private final int hosts;
    /** MBM version 2: order by pulse (version 1 delivers in arrival order and queues no notices, I-014). */
    private final boolean ordering;
    /** Entries one pulse may hold here ({@code IsotachConfig.bucketCapacity}). */
    private final int bucketCapacity;
    private final OutstandingIsochrons outstanding;
    private final DeliveryQueue delivery;
    private final long[] bucketPulse = new long[256];
    private final int[] bucketSize = new int[256];
    private final int[][] subtype;
    private final int[][] sender;
    private final int[][] slot;
    private final int[][] length;
    private final long[][] address;
    private final long[][] operand;
    /** Entries the host put in a bucket itself (not counted by the SIU's end-of-pulse marker). */
    private final int[] localEntries = new int[256];
    private long closedPulse = -1;
    private long pulsesProcessed;
    private boolean sharedMemory;
    private IsotachHost.NoticeSource notices = new IsotachHost.NoticeSource() {
        @Override
        public int signals(int endOfPulseBits) {
            return endOfPulseBits & 0xFC;
        }

        @Override
        public int barriers(int endOfPulseBits) {
            return endOfPulseBits & 0x03;
        }
    };

    OrderingModule(int me, int hosts, boolean ordering, int bucketCapacity, OutstandingIsochrons outstanding,
                   DeliveryQueue delivery) {
        this.me = me;
        this.hosts = hosts;
        this.ordering = ordering;
        this.bucketCapacity = bucketCapacity;
        this.outstanding = outstanding;
        this.delivery = delivery;
        Arrays.fill(bucketPulse, -1);
        int initial = Math.min(bucketCapacity, 256); // buckets grow, rarely, up to bucketCapacity
        subtype = new int[256][initial];
        sender = new int[256][initial];
        slot = new int[256][initial];
        length = new int[256][initial];
        address = new long[256][initial];
        operand = new long[256][initial];
    }

    /** Self-isochrons' references execute in the next pulse, at this host's place among its senders. */
    void sharedMemoryMode() {
        this.sharedMemory = true;
    }

    void noticeSource(IsotachHost.NoticeSource source) {
        this.notices = source;
    }

    /** An Isotach packet from {@code from}: bucketed by its pulse (MBM 1: queued for delivery at once). */
    void packet(long pulse, int packetSubtype, int from, int receiveSlot, int packetLength, long sharedAddress,
                long packetOperand) {
        if (!ordering) {
            delivery.append(packetSubtype == IsotachHost.ISO_MBM ? DeliveryQueue.NET_MESSAGE
                    : DeliveryQueue.SHARED_REFERENCE, from, receiveSlot, packetLength, sharedAddress, packetOperand,
                    pulse);
        } else {
            bucket(pulse, packetSubtype, from, receiveSlot, packetLength, sharedAddress, packetOperand);
        }
    }

    /** The isochron marker of this host's net-isochron {@code isochronId}, stamped {@code pulse}. */
    void isochronMarker(long pulse, int isochronId) {
        if (ordering) { // MBM 1 ignores isochron markers (I-014): nothing to match them against
            bucket(pulse, ISOCHRON_MARKER, me, isochronId, 0, 0, 0);
        }
    }

    private void bucket(long pulse, int entrySubtype, int from, int entrySlot, int entryLength, long entryAddress,
                        long entryOperand) {
        if (pulse <= closedPulse) {
            // Never ordered: its pulse's end-of-pulse marker has gone by (I-009).
            throw new IsotachFatalError("an entry of pulse " + pulse + " after pulse " + closedPulse + " was closed");
        }
        int b = (int) (pulse & 0xFF);
        if (bucketPulse[b] != pulse) {
            if (bucketPulse[b] > closedPulse) {
                throw new IsotachFatalError("bucket " + b + " holds pulse " + bucketPulse[b] + " and pulse " + pulse);
            }
            bucketPulse[b] = pulse;
            bucketSize[b] = 0;
        }
        int n = bucketSize[b];
        if (n == subtype[b].length) {
            if (n == bucketCapacity) {
                throw new IsotachFatalError("bucket overflow: more than " + n + " entries at pulse " + pulse); // I-112
            }
            growBucket(b, (int) Math.min(bucketCapacity, 2L * n));
        }
        subtype[b][n] = entrySubtype;
        sender[b][n] = from;
        slot[b][n] = entrySlot;
        length[b][n] = entryLength;
        address[b][n] = entryAddress;
        operand[b][n] = entryOperand;
        bucketSize[b] = n + 1;
    }

    private void growBucket(int b, int entries) {
        subtype[b] = Arrays.copyOf(subtype[b], entries);
        sender[b] = Arrays.copyOf(sender[b], entries);
        slot[b] = Arrays.copyOf(slot[b], entries);
        length[b] = Arrays.copyOf(length[b], entries);
        address[b] = Arrays.copyOf(address[b], entries);
        operand[b] = Arrays.copyOf(operand[b], entries);
    }

    /**
     * End-of-pulse markers for pulses {@code from..to}: the earlier ones empty (a merged run), the last with
     * {@code count} entries, the effect {@code bits} and the sort vector.
     */
    void endOfPulses(long from, long to, int count, int bits, byte[] sortVector) {
        for (long p = from; p <= to; p++) {
            if (p != closedPulse + 1) {
                throw new IsotachFatalError("EOP for pulse " + p + " after pulse " + closedPulse); // I-007
            }
            boolean last = p == to;
            endOfPulse(p, last ? count : 0, last ? bits : 0, sortVector);
        }
    }

    /**
     * End-of-pulse processing (Isotach report §7.3.5, pp. 66-69): count check, order, then the pulse's signal and
     * barrier notices.
     */
    private void endOfPulse(long p, int count, int bits, byte[] sortVector) {
        int b = (int) (p & 0xFF);
        int n = bucketPulse[b] == p ? bucketSize[b] : 0;
        int local = bucketPulse[b] == p ? localEntries[b] : 0;
        localEntries[b] = 0;
        if (ordering && n - local != count) {
            throw new IsotachFatalError("EOP count " + count + " but " + n + " entries for pulse " + p); // I-006
        }
        pulsesProcessed++;
        if (ordering && n > 0) {
            if (local > 0) {
                // Host-local entries are not in the SIU's sort vector: order the whole bucket by sender.
                processBySender(b, n, p);
            } else if (n <= 32) {
                for (int k = 0; k < n; k++) {
                    int idx = sortVector[k];
                    if (idx < 0 || idx >= n) {
                        throw new IsotachFatalError("sort vector index " + idx + " outside a bucket of " + n);
                    }
                    processEntry(b, idx, p);
                }
            } else {
                // More than the sort vector can hold: by sender id, stable in arrival order (Isotach report §7.3.5,
                // pp. 66-69).
                processBySender(b, n, p);
            }
            bucketSize[b] = 0;
        }
        closedPulse = p;
        if (bits != 0) {
            int signalBits = notices.signals(bits & 0xFC); // also counts resets, in every version
            if (signalBits != 0 && ordering) { // MBM 1 queues no notices (I-014, Isotach report §7.3.5, pp. 66-69)
                delivery.append(DeliveryQueue.NOTICE, -1, signalBits, 0, 0, 0, p);
            }
            if (ordering) {
                int barrierBits = notices.barriers(bits & 0x03);
                if (barrierBits != 0) {
                    delivery.append(DeliveryQueue.NOTICE, -1, barrierBits, 0, 0, 0, p);
                }
            }
        }
    }

    private void processBySender(int b, int n, long p) {
        for (int s = 0; s < hosts; s++) {
            for (int k = 0; k < n; k++) {
                if (sender[b][k] == s) {
                    processEntry(b, k, p);
                }
            }
        }
    }

    private void processEntry(int b, int k, long p) {
        int entrySubtype = subtype[b][k];
        if (entrySubtype == SELF_REFERENCES) {
            delivery.append(DeliveryQueue.SELF_MESSAGES, me, slot[b][k], 0, 0, 0, p);
        } else if (entrySubtype == ISOCHRON_MARKER) {
            // must match the oldest outstanding net-isochron (I-021)
            if (outstanding.isEmpty()) {
                throw new IsotachFatalError("isochron marker " + slot[b][k] + " with no isochron outstanding");
            }
            if (outstanding.oldestId() != slot[b][k]) {
                throw new IsotachFatalError("isochron marker " + slot[b][k] + " but isochron "
                        + outstanding.oldestId() + " is oldest");
            }
            if (outstanding.oldestSelfCount() > 0) {
                delivery.append(DeliveryQueue.SELF_MESSAGES, me, outstanding.oldestSelfCount(), 0, 0, 0, p);
            }
            outstanding.removeOldest();
        } else if (entrySubtype == IsotachHost.ISO_MBM) {
            delivery.append(DeliveryQueue.NET_MESSAGE, sender[b][k], slot[b][k], length[b][k], 0, 0, p);
        } else {
            delivery.append(DeliveryQueue.SHARED_REFERENCE, sender[b][k], entrySubtype, 0, address[b][k],
                    operand[b][k], p);
        }
    }

    /**
     * post_isochron (Isotach report §3.3.3, pp. 10-14; App. J, iom.c, pp. 255-261), with the zero-count guard of A18: a
     * net-isochron waits for its marker with its {@code self} self-messages; a self-isochron's go with the newest
     * outstanding net-isochron, or, when none is outstanding, are executable now (SMM: in the next pulse).
     */
    void postIsochron(boolean net, int self, int id) {
        if (net) {
            outstanding.add(id, self);
        } else if (outstanding.isEmpty() && sharedMemory) {
            // Shared memory: the references execute in the next pulse at this host's place among that pulse's
            // senders, as if looped back through the network (the alternative of Isotach report §3.3.3, pp. 10-14), so
            // that every copy's history stays in (pulse, sender, issue) order (G7).
            bucket(closedPulse + 1, SELF_REFERENCES, me, self, 0, 0, 0);
            localEntries[(int) ((closedPulse + 1) & 0xFF)]++;
        } else if (outstanding.isEmpty()) {
            // Never join a run of an earlier pulse: a self-message issued after net-isochron I is no earlier than I's
            // pulse (I-034, Isotach report §3.3.3, pp. 10-14), and I's marker may have closed a later pulse with no
            // delivery of its own.
            if (!delivery.extendNewestSelfMessages(self, closedPulse)) {
                delivery.append(DeliveryQueue.SELF_MESSAGES, me, self, 0, 0, 0, closedPulse);
            }
        } else {
            outstanding.addSelfToNewest(self);
        }
    }

    /** The last pulse processed. */
    long closedPulse() {
        return closedPulse;
    }

    long pulsesProcessed() {
        return pulsesProcessed;
    }
}
