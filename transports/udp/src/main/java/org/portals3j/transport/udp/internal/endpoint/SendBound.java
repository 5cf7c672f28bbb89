package org.portals3j.transport.udp.internal.endpoint;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bound on one peer's messages not yet acknowledged (queued or in flight), in messages and payload bytes:
 * counts them, and lets application threads wait for room. Guarded by the peer's lock (the one it is made with).
 */
final class SendBound {
    /**
     * Sends from the receive path are admitted beyond the bound (they must never wait for acknowledgements only
     * that path can process), up to this many times the message bound; beyond it the peer is failed.
     */
    static final int RECEIVE_PATH_FACTOR = 4;

    private final Condition room;
    private final long maxMessages;
    private final long maxBytes;
    private long messages;
    private long bytes;
    private int waiters;
    private volatile long highWater;

    SendBound(ReentrantLock lock, long maxMessages, long maxBytes) {
        this.room = lock.newCondition();
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
    }

    /** Whether a message of {@code length} payload bytes fits (one message always fits an empty queue). */
    boolean hasRoom(long length) {
        return messages < maxMessages && (bytes == 0 || bytes + length <= maxBytes);
    }

    /** Whether a send from the receive path would go beyond what it may add past the bound. */
    boolean beyondReceivePathLimit() {
        return messages >= maxMessages * RECEIVE_PATH_FACTOR;
    }

    long messages() {
        return messages;
    }

    /** The most messages ever unacknowledged at once (tests, diagnostics). */
    long highWater() {
        return highWater;
    }

    void added(long length) {
        messages++;
        bytes += length;
        if (messages > highWater) {
            highWater = messages;
        }
    }

    /** A message was acknowledged, or failed: a waiting sender may have room now. */
    void removed(long length) {
        messages--;
        bytes -= length;
        wakeAll();
    }

    /**
     * Waits (releasing the lock) until woken or {@code nanos} passed. Returns whether the thread was interrupted
     * (its status is then cleared: the caller waits on, and sets it again when done).
     */
    boolean await(long nanos) {
        waiters++;
        try {
            room.await(nanos, TimeUnit.NANOSECONDS);
            return false;
        } catch (InterruptedException e) {
            return true;
        } finally {
            waiters--;
        }
    }

    /** Wakes every waiting sender (room, the peer's death, the endpoint's close: each rechecks). */
    void wakeAll() {
        if (waiters > 0) {
            room.signalAll();
        }
    }
}
