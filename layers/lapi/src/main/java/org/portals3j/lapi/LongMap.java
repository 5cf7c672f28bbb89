package org.portals3j.lapi;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A map from {@code long} to object with open addressing: a lookup allocates nothing (no boxing), which the
 * per-message resolution of a C program's {@code tgt_cntr} needs. Not thread-safe; 0 is not a key. Grows by
 * doubling at half full.
 */
final class LongMap<V> {
    private long[] keys = new long[16];
    private @Nullable Object[] values = new Object[16];
    private int size;

    @SuppressWarnings("unchecked")
    @Nullable V get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return (V) values[i];
            }
            if (k == 0) {
                return null;
            }
        }
    }

    void put(long key, V value) {
        if (key == 0) {
            throw new IllegalArgumentException("0 is not a key");
        }
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (keys[i] == key || keys[i] == 0) {
                if (keys[i] == 0) {
                    size++;
                }
                keys[i] = key;
                values[i] = value;
                return;
            }
        }
    }

    private void grow() {
        long[] oldKeys = keys;
        @Nullable Object[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            Object v = oldValues[i];
            if (oldKeys[i] != 0 && v != null) {
                putRaw(oldKeys[i], v);
            }
        }
    }

    private void putRaw(long key, Object value) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != 0) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    @Override
    public String toString() {
        return "LongMap[" + size + " entries]";
    }
}
