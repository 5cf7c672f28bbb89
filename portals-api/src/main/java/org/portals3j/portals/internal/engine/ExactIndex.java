package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The match entries of one list that have no ignore bits, grouped by their match bits: an
 * open-addressing map (linear probing, backward-shift deletion) from 64-bit match bits to a
 * {@link Bucket} chain ordered like the list. This is what makes an exact-match lookup among thousands
 * of posted receives cost one probe instead of a walk. Buckets are pooled.
 */
final class ExactIndex {
    private long[] keys = new long[16];
    private @Nullable Bucket[] buckets = new Bucket[16];
    private int size;
    private @Nullable Bucket freeBuckets;

    /** A chain of entries, ordered by {@link MatchEntryState#order}. */
    static class Chain {
        @Nullable MatchEntryState head;
        @Nullable MatchEntryState tail;
    }

    /** The entries whose match bits are {@link #key}. */
    static final class Bucket extends Chain {
        long key;
        @Nullable Bucket nextFree;
    }

    @Nullable Bucket get(long key) {
        int mask = keys.length - 1;
        for (int i = hash(key) & mask; ; i = (i + 1) & mask) {
            Bucket b = buckets[i];
            if (b == null) {
                return null;
            }
            if (keys[i] == key) {
                return b;
            }
        }
    }

    Bucket getOrCreate(long key) {
        Bucket existing = get(key);
        if (existing != null) {
            return existing;
        }
        if ((size + 1) * 2 > keys.length) {
            resize(keys.length * 2);
        }
        Bucket b = freeBuckets;
        if (b != null) {
            freeBuckets = b.nextFree;
            b.nextFree = null;
        } else {
            b = new Bucket();
        }
        b.key = key;
        b.head = null;
        b.tail = null;
        place(key, b);
        size++;
        return b;
    }

    /** Removes an empty bucket. */
    void remove(Bucket bucket) {
        int mask = keys.length - 1;
        int i = hash(bucket.key) & mask;
        while (buckets[i] != bucket) {
            if (buckets[i] == null) {
                throw new IllegalStateException("bucket not in index");
            }
            i = (i + 1) & mask;
        }
        buckets[i] = null;
        size--;
        // Backward shift: pull later entries of the probe run into the hole so lookups stay correct.
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            Bucket moved = buckets[j];
            if (moved == null) {
                break;
            }
            int home = hash(keys[j]) & mask;
            boolean between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
            if (!between) {
                keys[i] = keys[j];
                buckets[i] = moved;
                buckets[j] = null;
                i = j;
            }
        }
        bucket.nextFree = freeBuckets;
        freeBuckets = bucket;
    }

    void clear() {
        for (int i = 0; i < buckets.length; i++) {
            Bucket b = buckets[i];
            if (b != null) {
                b.head = null;
                b.tail = null;
                b.nextFree = freeBuckets;
                freeBuckets = b;
                buckets[i] = null;
            }
        }
        size = 0;
    }

    int size() {
        return size;
    }

    private void place(long key, Bucket b) {
        int mask = keys.length - 1;
        int i = hash(key) & mask;
        while (buckets[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        buckets[i] = b;
    }

    private void resize(int capacity) {
        long[] oldKeys = keys;
        @Nullable Bucket[] old = buckets;
        keys = new long[capacity];
        buckets = new Bucket[capacity];
        for (int i = 0; i < old.length; i++) {
            Bucket b = old[i];
            if (b != null) {
                place(oldKeys[i], b);
            }
        }
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }
}
