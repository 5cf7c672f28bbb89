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

/**
 * What one endpoint keeps about one peer (itself included). The send side (slots, credits, the queue of messages
 * waiting for a credit) is guarded by {@link #lock}; the receive side and the control messages belong to the
 * progress thread.
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

    // ---- receive side, progress thread only ----
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

    // ---- control messages, progress thread only ----
    final MemorySegment[] controlBuffers;
    final boolean[] controlBusy;
    /** FINs waiting for a free control buffer: slot and outcome. */
    private final int[] pendingFins;
    private int pendingFinHead;
    private int pendingFinCount;

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
        this.pendingFins = new int[slots.length];
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

    /** Queues a FIN (slot, with outcome in the top bit) until a control buffer is free; false if full. */
    boolean queueFin(int slot, boolean read) {
        if (pendingFinCount == pendingFins.length) {
            return false;
        }
        pendingFins[(pendingFinHead + pendingFinCount) % pendingFins.length] = read ? slot | 0x8000_0000 : slot;
        pendingFinCount++;
        return true;
    }

    boolean hasPendingFin() {
        return pendingFinCount > 0;
    }

    /** The oldest queued FIN, removed: slot in the low 31 bits, outcome in the top bit. */
    int takePendingFin() {
        int fin = pendingFins[pendingFinHead];
        pendingFinHead = (pendingFinHead + 1) % pendingFins.length;
        pendingFinCount--;
        return fin;
    }
}
