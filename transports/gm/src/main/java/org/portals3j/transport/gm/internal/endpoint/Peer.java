package org.portals3j.transport.gm.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.gm.internal.protocol.Bounce;
import org.portals3j.transport.gm.internal.protocol.CreditReturns;
import org.portals3j.transport.gm.internal.protocol.Credits;
import org.portals3j.transport.gm.internal.protocol.RegistrationCache;
import org.portals3j.transport.gm.internal.protocol.WireHeader;

/**
 * What one endpoint keeps about one peer (itself included). The send side (slots, credits, the queue of messages
 * waiting for a credit) and the FINs not sent yet are guarded by {@link #lock}; the receive side and the control
 * buffers belong to whoever runs the receive path ({@link ReceivePath}).
 */
final class Peer {
    final int rank;
    /** GM node id: rank + 1 (GM_NO_SUCH_NODE_ID is 0). */
    final int node;
    /** The GM port the peer opened (from the rendezvous). */
    int gmPort;

    // ---- send side, guarded by lock ----
    final ReentrantLock lock = new ReentrantLock();
    final Condition room = lock.newCondition();
    final Credits credits;
    final SendSlot[] slots;
    private final int[] free;
    private int freeCount;
    /** Slots queued for a credit, in send order. */
    private final int[] waiting;
    private int waitingHead;
    private int waitingCount;
    int sendSequence;
    volatile boolean failed;

    // ---- receive side, the receive path only ----
    final DepositWriter writer = new DepositWriter();
    final CreditReturns returns;
    int receiveSequence;
    /** Data messages that arrived while an RMA read was in progress: receive buffer indexes and lengths. */
    private final int[] heldBuffers;
    private final long[] heldLengths;
    private int heldHead;
    private int heldCount;
    boolean reading;
    long readLength;
    int readSlot;
    MemorySegment readTarget = MemorySegment.NULL;
    long readOffset;
    RegistrationCache.@Nullable Registration readRegistration;
    @Nullable Bounce readBounce;

    // ---- control messages, the receive path only ----
    final MemorySegment[] controlBuffers;
    final boolean[] controlBusy;
    /**
     * FINs not sent yet (guarded by lock), as {@link WireHeader#fin} fields: each rides on the next data message to
     * the peer, or goes alone once the receive path's round that made it is over or no control buffer was free.
     */
    private final int[] unsentFins;
    private int unsentFinHead;
    private int unsentFinCount;

    Peer(int rank, int credits, SendSlot[] slots, int heldCapacity, MemorySegment[] controlBuffers) {
        this.rank = rank;
        this.node = rank + 1;
        this.credits = new Credits(credits);
        this.returns = new CreditReturns(credits);
        this.slots = slots;
        this.free = new int[slots.length];
        for (int i = 0; i < slots.length; i++) {
            free[i] = slots.length - 1 - i;
        }
        this.freeCount = slots.length;
        this.waiting = new int[slots.length];
        this.heldBuffers = new int[heldCapacity];
        this.heldLengths = new long[heldCapacity];
        this.controlBuffers = controlBuffers;
        this.controlBusy = new boolean[controlBuffers.length];
        this.unsentFins = new int[slots.length];
    }

    // ---- send side (lock held) ----

    int inUse() {
        return slots.length - freeCount;
    }

    SendSlot takeSlot() {
        SendSlot s = slots[free[--freeCount]];
        s.inUse = true;
        s.withGm = false;
        s.completed = false;
        s.rma = false;
        s.finReceived = false;
        return s;
    }

    void freeSlot(SendSlot s) {
        s.inUse = false;
        s.registration = null;
        s.bounce = null;
        free[freeCount++] = s.index;
        room.signalAll();
    }

    void queueForCredit(SendSlot s) {
        waiting[(waitingHead + waitingCount) % waiting.length] = s.index;
        waitingCount++;
    }

    /** The next slot waiting for a credit, or null; the caller has taken the credit. */
    @Nullable SendSlot nextWaiting() {
        if (waitingCount == 0) {
            return null;
        }
        int index = waiting[waitingHead];
        waitingHead = (waitingHead + 1) % waiting.length;
        waitingCount--;
        return slots[index];
    }

    boolean hasWaiting() {
        return waitingCount > 0;
    }

    void clearWaiting() {
        waitingHead = 0;
        waitingCount = 0;
    }

    // ---- receive side ----

    /** Holds a data message for later; false if the hold queue is full (the peer overran its credits). */
    boolean hold(int buffer, long length) {
        if (heldCount == heldBuffers.length) {
            return false;
        }
        int i = (heldHead + heldCount) % heldBuffers.length;
        heldBuffers[i] = buffer;
        heldLengths[i] = length;
        heldCount++;
        return true;
    }

    boolean hasHeld() {
        return heldCount > 0;
    }

    int heldBuffer() {
        return heldBuffers[heldHead];
    }

    long heldLength() {
        return heldLengths[heldHead];
    }

    void dropHeld() {
        heldHead = (heldHead + 1) % heldBuffers.length;
        heldCount--;
    }

    // ---- control side ----

    /** A free control buffer's index, or -1. */
    int freeControl() {
        for (int i = 0; i < controlBusy.length; i++) {
            if (!controlBusy[i]) {
                return i;
            }
        }
        return -1;
    }

    /** Queues a FIN for the message from the peer's send slot {@code slot} (lock held); false if full. */
    boolean queueFin(int slot, boolean read) {
        if (unsentFinCount == unsentFins.length) {
            return false;
        }
        unsentFins[(unsentFinHead + unsentFinCount) % unsentFins.length] = WireHeader.fin(slot, read);
        unsentFinCount++;
        return true;
    }

    boolean hasUnsentFin() {
        return unsentFinCount > 0;
    }

    /** The oldest unsent FIN as a {@link WireHeader#fin} field, removed, or {@link WireHeader#NO_FIN} (lock held). */
    int takeFin() {
        if (unsentFinCount == 0) {
            return WireHeader.NO_FIN;
        }
        int fin = unsentFins[unsentFinHead];
        unsentFinHead = (unsentFinHead + 1) % unsentFins.length;
        unsentFinCount--;
        return fin;
    }
}
