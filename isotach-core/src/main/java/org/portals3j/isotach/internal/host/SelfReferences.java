package org.portals3j.isotach.internal.host;

import org.portals3j.transport.internal.CacheLinePadding;

/**
 * Shared-memory references to this host's own copies, in issue order, until executed with their isochron (the
 * report's self-references, Isotach report §3.3.3, pp. 10-14); bounded: a change that does not fit is refused before
 * any is queued.
 */
final class SelfReferences extends CacheLinePadding {
    private final int[] subtype;
    private final long[] address;
    private final long[] operand;
    private long head;
    private long tail;

    SelfReferences(int capacity) {
        subtype = new int[capacity];
        address = new long[capacity];
        operand = new long[capacity];
    }

    boolean hasRoom() {
        return tail - head < subtype.length;
    }

    /** Queues a reference (there must be room). */
    void add(int referenceSubtype, long referenceAddress, long referenceOperand) {
        int i = (int) (tail % subtype.length);
        subtype[i] = referenceSubtype;
        address[i] = referenceAddress;
        operand[i] = referenceOperand;
        tail++;
    }

    int oldestSubtype() {
        return subtype[(int) (head % subtype.length)];
    }

    long oldestAddress() {
        return address[(int) (head % subtype.length)];
    }

    long oldestOperand() {
        return operand[(int) (head % subtype.length)];
    }

    void removeOldest() {
        head++;
    }
}
