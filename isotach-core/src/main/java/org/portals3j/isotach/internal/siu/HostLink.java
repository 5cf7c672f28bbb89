package org.portals3j.isotach.internal.siu;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * What the SIU gives its host (the report's NIU receive buffer, Isotach report §3.3.2, pp. 10-14: packets, isochron
 * markers, end-of-pulse markers) and what else the host must hear; written and taken under the switch node's lock.
 */
public final class HostLink extends CacheLinePadding {
    public static final int ISO = 1;
    /** An isochron marker: this host's net-isochron was stamped. */
    public static final int ISOCHRON_MARKER = 2;
    /** The report's EOP marker: a pulse closed. */
    public static final int END_OF_PULSE = 3;
    public static final int CREDIT = 4;
    public static final int SYNC = 5;
    public static final int PEER_DOWN = 6;
    public static final int FATAL = 7;

    /** One record, copied out by {@link #take}. Fields are used by type as documented. */
    public static final class Record {
        public int type;
        /** ISO/ISOCHRON_MARKER/END_OF_PULSE: the pulse (TS). */
        public long pulse;
        /** END_OF_PULSE: the first pulse of a merged run of empty pulses ending at {@link #pulse} (else pulse). */
        public long fromPulse;
        /** ISO/CREDIT/SYNC/PEER_DOWN: the peer. */
        public int peer;
        /** ISO: subtype; ISOCHRON_MARKER: isochron id; END_OF_PULSE: count; SYNC: phase. */
        public int a;
        /** ISO: receive slot; END_OF_PULSE: bits (signals | barrier); SYNC: noniso slots. */
        public int b;
        /** ISO: payload length; SYNC: iso credits. */
        public int c;
        /** ISO: shared address; CREDIT: freed count. */
        public long address;
        /** ISO: operand. */
        public long operand;
        /** ISO: piggybacked credit present. */
        public boolean creditPresent;
        /** ISO: piggybacked credit (freed count). */
        public long credit;
        /** END_OF_PULSE with count <= 32: the sort vector (indices into the pulse's arrival order). */
        public final byte[] sortVector = new byte[32];
        /** FATAL: what went wrong. */
        public String message = "";
    }

    private Record[] ring;
    private int head;
    /** Written under the switch node's lock; volatile so that an empty link is seen without taking the lock. */
    private volatile int size;

    HostLink(int capacity) {
        ring = new Record[capacity];
        for (int i = 0; i < capacity; i++) {
            ring[i] = new Record();
        }
    }

    /** The next free record to fill (caller holds the lock and must {@link #publish} it). */
    Record claim() {
        if (size == ring.length) {
            Record[] old = ring;
            ring = new Record[old.length * 2];
            for (int k = 0; k < old.length; k++) {
                ring[k] = old[(head + k) % old.length];
            }
            for (int k = old.length; k < ring.length; k++) {
                ring[k] = new Record();
            }
            head = 0;
        }
        return ring[(head + size) % ring.length];
    }

    void publish() {
        size++;
    }

    /**
     * The last published record not yet taken, or null (caller holds the lock): the switch node merges a run of empty
     * end-of-pulse markers into it ({@link Record#fromPulse}), so a host that computes for a while does not find one
     * record per idle pulse.
     */
    @Nullable Record lastUntaken() {
        return size == 0 ? null : ring[(head + size - 1) % ring.length];
    }

    /** Copies the oldest record into {@code out}; false when empty (caller holds the lock). */
    boolean take(Record out) {
        if (size == 0) {
            return false;
        }
        Record r = ring[head];
        out.type = r.type;
        out.pulse = r.pulse;
        out.fromPulse = r.fromPulse;
        out.peer = r.peer;
        out.a = r.a;
        out.b = r.b;
        out.c = r.c;
        out.address = r.address;
        out.operand = r.operand;
        out.creditPresent = r.creditPresent;
        out.credit = r.credit;
        if (r.type == END_OF_PULSE && r.a <= 32) {
            System.arraycopy(r.sortVector, 0, out.sortVector, 0, r.a);
        }
        if (r.type == FATAL) {
            out.message = r.message; // a reference store: only for the record that has one (see Outbox)
        }
        head = (head + 1) % ring.length;
        size--;
        return true;
    }

    boolean isEmpty() {
        return size == 0;
    }
}
