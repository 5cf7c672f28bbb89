package org.portals3j.isotach.internal.host;

import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The host's delivery queue (the report's {@code iso_delivery_q}; {@code shmem_buf} on an SMM host): what the ordering
 * module made executable, in isotach order, until the application or the SMM takes it; bounded, overflow is fatal.
 */
final class DeliveryQueue extends CacheLinePadding {
    /** A net message in its sender's ordered receive slot. The report's iso-pointer. */
    static final int NET_MESSAGE = 1;
    /** A run of {@link #count} self-messages (or self-references) in the host's own buffer. */
    static final int SELF_MESSAGES = 2;
    /** A bs-notice: signal or barrier bits of a pulse. */
    static final int NOTICE = 3;
    /** A shared-memory reference from another host. The report's sRef. */
    static final int SHARED_REFERENCE = 4;

    private final int capacity;
    private final int[] type;
    private final int[] sender;
    /** NET_MESSAGE: receive slot; SELF_MESSAGES: count; NOTICE: bits; SHARED_REFERENCE: subtype. */
    private final int[] detail;
    private final int[] length;
    private final long[] address;
    private final long[] operand;
    private final long[] pulse;
    private long head;
    private long tail;

    DeliveryQueue(int capacity) {
        this.capacity = capacity;
        type = new int[capacity];
        sender = new int[capacity];
        detail = new int[capacity];
        length = new int[capacity];
        address = new long[capacity];
        operand = new long[capacity];
        pulse = new long[capacity];
    }

    /** Appends an entry (see the type constants for {@code entryDetail}). */
    void append(int entryType, int entrySender, int entryDetail, int entryLength, long entryAddress,
                long entryOperand, long entryPulse) {
        if (tail - head == capacity) {
            throw new IsotachFatalError("iso_delivery_q overflow");
        }
        int i = (int) (tail % capacity);
        type[i] = entryType;
        sender[i] = entrySender;
        detail[i] = entryDetail;
        length[i] = entryLength;
        address[i] = entryAddress;
        operand[i] = entryOperand;
        pulse[i] = entryPulse;
        tail++;
    }

    /**
     * Adds {@code n} self-messages to the newest entry if it is a run of them at {@code atPulse}; false (nothing
     * added) otherwise.
     */
    boolean extendNewestSelfMessages(int n, long atPulse) {
        if (head == tail) {
            return false;
        }
        int t = (int) ((tail - 1) % capacity);
        if (type[t] != SELF_MESSAGES || pulse[t] != atPulse) {
            return false;
        }
        detail[t] += n;
        return true;
    }

    boolean isEmpty() {
        return head == tail;
    }

    long size() {
        return tail - head;
    }

    /** The oldest entry's index (the queue must not be empty). */
    int oldest() {
        return (int) (head % capacity);
    }

    void removeOldest() {
        head++;
    }

    int type(int i) {
        return type[i];
    }

    int sender(int i) {
        return sender[i];
    }

    /** NET_MESSAGE: the receive slot. */
    int slot(int i) {
        return detail[i];
    }

    /** SELF_MESSAGES: how many are left in the run. */
    int count(int i) {
        return detail[i];
    }

    /** SELF_MESSAGES: one of the run is done; returns how many are left. */
    int countDown(int i) {
        return --detail[i];
    }

    /** NOTICE: the notice's bits. */
    int noticeBits(int i) {
        return detail[i];
    }

    /** SHARED_REFERENCE: the reference's subtype. */
    int subtype(int i) {
        return detail[i];
    }

    int length(int i) {
        return length[i];
    }

    long address(int i) {
        return address[i];
    }

    long operand(int i) {
        return operand[i];
    }

    long pulse(int i) {
        return pulse[i];
    }
}
