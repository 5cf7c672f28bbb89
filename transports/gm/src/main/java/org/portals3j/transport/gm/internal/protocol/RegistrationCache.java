package org.portals3j.transport.gm.internal.protocol;

import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A bounded cache of memory registrations: native segments that carry RMA payloads are registered once and reused
 * while they stay in the cache. A lookup finds a cached registration that covers the region; a miss registers
 * exactly the region, evicting the least recently used registration nobody holds. When every entry is held the
 * region is registered uncached and deregistered on release. Entries are made once: a hit allocates nothing.
 *
 * <p>Registration is bookkeeping for the software providers (tcp, shm): a registration that outlives its memory is
 * never used by a peer, since a peer reads only regions named in a message whose send has not completed.
 * Thread-safe.
 */
public final class RegistrationCache {

    /** One registration; {@link #key()} is what a peer needs with the address. */
    public static final class Registration {
        long address;
        long length;
        long key;
        int holders;
        long lastUse;
        boolean cached;
        boolean valid;

        public long key() {
            return key;
        }
    }

    private final Registrar registrar;
    private final Registration[] entries;
    private long clock;
    private long hits;
    private long misses;

    public RegistrationCache(Registrar registrar, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("registration cache capacity " + capacity + " (at least 1)");
        }
        this.registrar = registrar;
        this.entries = new Registration[capacity];
        for (int i = 0; i < capacity; i++) {
            entries[i] = new Registration();
            entries[i].cached = true;
        }
    }

    /**
     * A registration covering {@code [address, address + length)}, held until {@link #release}.
     *
     * @throws IllegalStateException when the region cannot be registered
     */
    public synchronized Registration acquire(long address, long length) {
        clock++;
        @Nullable Registration free = null;
        for (Registration r : entries) {
            if (r.valid && r.address <= address && address - r.address <= r.length - length) {
                r.holders++;
                r.lastUse = clock;
                hits++;
                return r;
            }
            if (r.holders == 0 && (free == null || !r.valid && free.valid || r.valid == free.valid
                    && r.lastUse < free.lastUse)) {
                free = r;
            }
        }
        misses++;
        Registration target = free == null ? new Registration() : free;
        if (target.valid) {
            target.valid = false;
            registrar.deregister(target.address, target.length);
        }
        target.key = registrar.register(address, length); // throws: target stays invalid and free
        target.address = address;
        target.length = length;
        target.valid = true;
        target.holders = 1;
        target.lastUse = clock;
        return target;
    }

    /** Gives back a registration {@link #acquire} returned. */
    public synchronized void release(Registration r) {
        if (r.holders <= 0) {
            throw new IllegalStateException("registration of " + r.length + " bytes released more often than held");
        }
        r.holders--;
        if (r.holders == 0 && !r.cached) {
            r.valid = false;
            registrar.deregister(r.address, r.length);
        }
    }

    /** Deregisters every cached registration nobody holds (at close). */
    public synchronized void clear() {
        for (Registration r : entries) {
            if (r.valid && r.holders == 0) {
                r.valid = false;
                registrar.deregister(r.address, r.length);
            }
        }
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }
}
