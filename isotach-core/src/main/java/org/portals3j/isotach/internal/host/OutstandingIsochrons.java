package org.portals3j.isotach.internal.host;

import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * The net-isochrons this host sent whose isochron marker has not come back, oldest first, each with the self-messages
 * that execute with it (the report's {@code hit_q} of isochron slots, Isotach report §3.3.3, pp. 10-14); bounded,
 * overflow is fatal.
 */
final class OutstandingIsochrons extends CacheLinePadding {
    private final int[] isochronId;
    private final int[] selfCount;
    private long head;
    private long tail;

    OutstandingIsochrons(int capacity) {
        isochronId = new int[capacity];
        selfCount = new int[capacity];
    }

    /** A net-isochron ended, with {@code self} self-messages (or self-references) issued within it. */
    void add(int id, int self) {
        if (tail - head == isochronId.length) {
            throw new IsotachFatalError("hit_q overflow");
        }
        int i = (int) (tail % isochronId.length);
        isochronId[i] = id;
        selfCount[i] = self;
        tail++;
    }

    boolean isEmpty() {
        return head == tail;
    }

    long size() {
        return tail - head;
    }

    /** The oldest outstanding isochron's id (not empty). */
    int oldestId() {
        return isochronId[(int) (head % isochronId.length)];
    }

    /** The self-messages that execute with the oldest outstanding isochron (not empty). */
    int oldestSelfCount() {
        return selfCount[(int) (head % isochronId.length)];
    }

    /** The oldest isochron's marker came back. */
    void removeOldest() {
        head++;
    }

    /**
     * Self-messages issued after the newest net-isochron execute with its marker (Isotach report §3.3.3, pp. 10-14; not
     * empty).
     */
    void addSelfToNewest(int self) {
        selfCount[(int) ((tail - 1) % isochronId.length)] += self;
    }
}
