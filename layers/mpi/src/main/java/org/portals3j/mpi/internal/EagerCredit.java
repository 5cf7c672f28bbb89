package org.portals3j.mpi.internal;

/**
 * What a sender may still put eagerly into one receiver's region for it: the region is a ring of {@code capacity}
 * bytes that this sender manages (its puts name the offset, {@code PTL_MD_MANAGE_REMOTE}); {@link #head} counts the
 * bytes handed out since the start, {@link #freed} the bytes the receiver reported consumed (its credit messages).
 * A message takes whole slots from the head, or from offset 0 when it would not fit before the ring's end (the
 * bytes skipped count as taken).
 */
final class EagerCredit {
    private final int capacity;
    private long head;
    private long freed;
    /** Where the last reservation ended, as a count of bytes from the start (the receiver reports these). */
    private long lastEnd;

    EagerCredit(int capacity) {
        this.capacity = capacity;
    }

    /** Reserves room for {@code bytes}; returns its offset in the region, or -1 if there is not enough credit. */
    long reserve(int bytes) {
        int n = MpiConfig.roundUp(bytes);
        long position = head % capacity;
        long skip = position + n > capacity ? capacity - position : 0;
        if (head + skip + n - freed > capacity) {
            return -1;
        }
        head += skip + n;
        lastEnd = head;
        return skip > 0 ? 0 : position;
    }

    /** The end of the last reservation: sent with the message so that the receiver can report it freed. */
    long lastEnd() {
        return lastEnd;
    }

    /** The receiver has consumed everything up to {@code end}. Later reports never move it back. */
    void freedTo(long end) {
        if (end > freed && end <= head) {
            freed = end;
        }
    }
}
