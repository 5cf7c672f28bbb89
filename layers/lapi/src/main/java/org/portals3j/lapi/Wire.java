package org.portals3j.lapi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The layer's packet header: every message the layer puts on its request portal starts with these
 * {@value #HEADER} bytes, then {@code uhdr}, then (eager) the data. A flyweight of offsets; all fields little-endian.
 * The Portals {@code hdr_data} is unused: everything is in the packet, so one receive path reads it.
 */
final class Wire {
    /** Byte: the packet's kind (one of the constants below). */
    static final long KIND = 0;
    /** Byte: flags of a {@link #COMPLETE}. */
    static final long FLAGS = 1;
    /** Int: {@code uhdr_len}. */
    static final long UHDR_LEN = 4;
    /**
     * Int: the origin's flush epoch towards the target ({@link #F_LAZY} requests, {@link #FLUSH}): a request
     * whose epoch is older than the last flush the target saw is answered at once.
     */
    static final long EPOCH = 8;
    /** Int: kind-specific: the generation of a collective, the credits of a hello, the ids of an {@link #ACKS}. */
    static final long AUX = 12;
    /** Long: the origin's operation id, echoed in the replies and used as the match bits of its exposed buffer. */
    static final long MSG_ID = 16;
    /** Long: {@code hdr_hdl} (Amsend), {@code tgt_addr} (Put, Get), the value of an address exchange. */
    static final long ADDR = 24;
    /** Long: {@code tgt_cntr}, 0 for none. */
    static final long TGT_CNTR = 32;
    /** Long: {@code udata_len} or {@code len}. */
    static final long LEN = 40;
    /**
     * Long: the id of one operation of the receiver's that the sender answers with this packet (its final reply,
     * carried by whatever goes back), 0 for none.
     */
    static final long ACK = 48;
    /** The header's size; {@code uhdr} follows. */
    static final int HEADER = 56;

    /** Amsend with its data in the packet. */
    static final byte AM_EAGER = 1;
    /** Amsend header; the target fetches the data from the origin's exposed buffer. */
    static final byte AM_RNDV = 2;
    /** Put with its data in the packet. */
    static final byte PUT_EAGER = 3;
    /** Put header; the target fetches the data. */
    static final byte PUT_RNDV = 4;
    /** Get request; the target puts the data into the origin's exposed buffer. */
    static final byte GET_REQ = 5;
    /** The target's reply to one of the five above (flags say what it reports). */
    static final byte COMPLETE = 16;
    /** Init: "I am up; you have AUX credits with me". */
    static final byte HELLO = 17;
    /** The answer to a hello: "you have AUX credits with me". */
    static final byte HELLO_ACK = 18;
    /** Gfence: a task entered barrier AUX (sent to task 0). */
    static final byte BARRIER_ENTER = 19;
    /** Gfence: task 0 releases barrier AUX. */
    static final byte BARRIER_RELEASE = 20;
    /** Address_init: the sender's value (ADDR) for exchange AUX. */
    static final byte ADDRX = 21;
    /** Fence: "answer every deferred request of mine now, and the ones of epochs before EPOCH at once". */
    static final byte FLUSH = 22;
    /** AUX final replies at once: the ids of the operations follow the header, a long each. */
    static final byte ACKS = 23;

    /** COMPLETE: the data of the operation is delivered (Fence's count). */
    static final int F_DATA_DONE = 1;
    /** COMPLETE: the last reply; the credit returns and the operation ends. */
    static final int F_FINAL = 2;
    /** COMPLETE: increment the origin's {@code cmpl_cntr} (absent with LAPI_LOCAL_STATE). */
    static final int F_CMPL = 4;
    /** COMPLETE: the target never fetched the exposed data (discarded, O-06/O-09): unlink it. */
    static final int F_FAILED = 8;
    /**
     * Request: no counter of the origin waits for the final reply (the data was copied out and there is no
     * {@code cmpl_cntr}): the target may defer it, to ride on a later packet ({@link #ACK}, {@link #ACKS}).
     */
    static final int F_LAZY = 16;

    /** The match bits of the request portal's entries. */
    static final long MATCH_REQUEST = 0x4C415049L;
    /** The match bits of the wake-up entry on the source portal: negative, so never an operation's id. */
    static final long MATCH_WAKE = -1L;
    /** The user pointer of the wake-up entry's events. */
    static final Object WAKE = new Object();

    private Wire() {
    }

    static boolean consumesCredit(int kind) {
        return kind >= AM_EAGER && kind <= GET_REQ;
    }

    static int kind(MemorySegment s, long base) {
        return s.get(ValueLayout.JAVA_BYTE, base + KIND);
    }

    static int flags(MemorySegment s, long base) {
        return s.get(ValueLayout.JAVA_BYTE, base + FLAGS) & 0xFF;
    }

    static int getInt(MemorySegment s, long base, long field) {
        return s.get(ValueLayout.JAVA_INT_UNALIGNED, base + field);
    }

    static long getLong(MemorySegment s, long base, long field) {
        return s.get(ValueLayout.JAVA_LONG_UNALIGNED, base + field);
    }

    /** Writes a header at offset 0 of {@code s}. */
    static void write(MemorySegment s, int kind, int flags, int uhdrLen, int aux, long msgId, long addr, long tgtCntr,
                      long len) {
        s.set(ValueLayout.JAVA_BYTE, KIND, (byte) kind);
        s.set(ValueLayout.JAVA_BYTE, FLAGS, (byte) flags);
        s.set(ValueLayout.JAVA_SHORT_UNALIGNED, 2, (short) 0);
        s.set(ValueLayout.JAVA_INT_UNALIGNED, UHDR_LEN, uhdrLen);
        s.set(ValueLayout.JAVA_INT_UNALIGNED, EPOCH, 0);
        s.set(ValueLayout.JAVA_INT_UNALIGNED, AUX, aux);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, MSG_ID, msgId);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, ADDR, addr);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, TGT_CNTR, tgtCntr);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, LEN, len);
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, ACK, 0L);
    }

    static void setInt(MemorySegment s, long field, int value) {
        s.set(ValueLayout.JAVA_INT_UNALIGNED, field, value);
    }

    static void setLong(MemorySegment s, long field, long value) {
        s.set(ValueLayout.JAVA_LONG_UNALIGNED, field, value);
    }
}
