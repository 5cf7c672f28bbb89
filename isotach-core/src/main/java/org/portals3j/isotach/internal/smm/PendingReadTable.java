package org.portals3j.isotach.internal.smm;

import java.util.Arrays;

/**
 * Reads of an unsubstantiated variable waiting for the assign they depend on (the report's pending-read table,
 * Isotach report §3.4, pp. 14-18; §7.4.5, pp. 69-72), keyed by (address, vId) and answered in execution
 * order; preallocated, allocation-free.
 */
final class PendingReadTable {
    private static final int NONE = -1;

    private final long[] address;
    private final int[] vId;
    private final int[] reader;
    private final int[] slot;
    private final long[] pulse;
    private final long[] sequence;
    private final int[] next;
    private final int[] head;
    private final int[] tail;
    private final int mask;
    private int freeHead;
    private int size;

    /** A table for {@code capacity} entries with the bucket count chosen for it (about two per entry). */
    PendingReadTable(int capacity) {
        this(capacity, bucketsFor(capacity));
    }

    /**
     * A table with an explicit bucket count (a power of two); tests use 1 bucket to put every key in one chain.
     */
    PendingReadTable(int capacity, int buckets) {
        if (capacity < 1) {
            throw new IllegalArgumentException("pending-read capacity must be >= 1, was " + capacity);
        }
        if (buckets < 1 || Integer.bitCount(buckets) != 1) {
            throw new IllegalArgumentException("bucket count must be a power of two, was " + buckets);
        }
        address = new long[capacity];
        vId = new int[capacity];
        reader = new int[capacity];
        slot = new int[capacity];
        pulse = new long[capacity];
        sequence = new long[capacity];
        next = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            next[i] = i + 1 < capacity ? i + 1 : NONE;
        }
        freeHead = 0;
        head = new int[buckets];
        tail = new int[buckets];
        Arrays.fill(head, NONE);
        Arrays.fill(tail, NONE);
        mask = buckets - 1;
    }

    private static int bucketsFor(int capacity) {
        int b = Integer.highestOneBit(Math.max(1, capacity)) << 1;
        return b > 0 ? b : 1 << 30;
    }

    /** fmix64 of MurmurHash3 over the key: consecutive addresses and small vIds spread over all buckets. */
    private int bucket(long addr, int id) {
        long h = addr * 0x9E3779B97F4A7C15L + id;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return (int) h & mask;
    }

    /**
     * Records a read pending on (addr, id). When an assign (addr, id) executes, the caller calls {@link #take} until it
     * returns -1, reading each returned entry's fields and then {@link #free}ing it.
     *
     * @return false if the table is full (nothing recorded)
     */
    boolean add(long addr, int id, int readerHost, int readSlot, long readPulse, long readSequence) {
        int e = freeHead;
        if (e == NONE) {
            return false;
        }
        freeHead = next[e];
        address[e] = addr;
        vId[e] = id;
        reader[e] = readerHost;
        slot[e] = readSlot;
        pulse[e] = readPulse;
        sequence[e] = readSequence;
        next[e] = NONE;
        int b = bucket(addr, id);
        if (tail[b] == NONE) {
            head[b] = e;
        } else {
            next[tail[b]] = e;
        }
        tail[b] = e;
        size++;
        return true;
    }

    /**
     * Unlinks the oldest entry pending on (addr, id) and returns its index; its fields stay readable until it is
     * {@link #free}d. Returns -1 when no read pends on that key.
     */
    int take(long addr, int id) {
        // The report suggests "a hash table (hashing on v or v concatenated with vId)", worst case n * read_cap
        // entries (Isotach report §3.4, pp. 14-18): here parallel arrays, a free list and a power-of-two array of
        // bucket chains, each chain in insertion order (head and tail) so that the reads pending on one key come out in
        // the order they executed.
        int b = bucket(addr, id);
        int prev = NONE;
        for (int e = head[b]; e != NONE; prev = e, e = next[e]) {
            if (address[e] == addr && vId[e] == id) {
                int after = next[e];
                if (prev == NONE) {
                    head[b] = after;
                } else {
                    next[prev] = after;
                }
                if (tail[b] == e) {
                    tail[b] = prev;
                }
                next[e] = NONE;
                size--;
                return e;
            }
        }
        return NONE;
    }

    /** Returns a {@link #take}n entry to the free list. */
    void free(int e) {
        next[e] = freeHead;
        freeHead = e;
    }

    /** Whether any read pends on (addr, id). */
    boolean contains(long addr, int id) {
        for (int e = head[bucket(addr, id)]; e != NONE; e = next[e]) {
            if (address[e] == addr && vId[e] == id) {
                return true;
            }
        }
        return false;
    }

    int reader(int e) {
        return reader[e];
    }

    int slot(int e) {
        return slot[e];
    }

    long pulse(int e) {
        return pulse[e];
    }

    long sequence(int e) {
        return sequence[e];
    }

    /** Entries pending now. */
    int size() {
        return size;
    }

    int capacity() {
        return address.length;
    }

    int buckets() {
        return head.length;
    }

    /** The longest bucket chain now (diagnostics: how well the keys spread). */
    int longestChain() {
        int longest = 0;
        for (int h : head) {
            int n = 0;
            for (int e = h; e != NONE; e = next[e]) {
                n++;
            }
            longest = Math.max(longest, n);
        }
        return longest;
    }
}
