package org.portals3j.portals.internal.engine;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The objects of one kind on one interface, in numbered slots. Objects are created once per slot and
 * reused, so steady-state operation allocates nothing; a slot's generation rises each time its
 * object dies, so a handle to a dead object never names the next one.
 *
 * <p>An object can be <em>retired</em> (its handles stop working) before it is <em>freed</em> (its
 * slot can be reused): a memory descriptor unlinked while operations are still pending on it.
 */
final class SlotTable<T extends Slotted> {
    private final IntFunction<T> factory;
    private @Nullable T[] objects;
    private int[] freeSlots = new int[16];
    private int freeCount;
    private int created;
    private int inUse;
    private int limit;

    @SuppressWarnings("unchecked")
    SlotTable(IntFunction<T> factory) {
        this.factory = factory;
        this.objects = (@Nullable T[]) new Slotted[16];
    }

    /** Sets how many objects may exist at once (a {@code ptl_ni_limits_t} count). */
    void limit(int max) {
        this.limit = Math.min(max, HandleCodec.SLOT_LIMIT);
    }

    int inUse() {
        return inUse;
    }

    /** True if {@link #allocate} would find a slot. */
    boolean hasRoom() {
        return inUse < limit;
    }

    /** A fresh object in a free slot, or null when {@code limit} objects exist ({@code PTL_NOSPACE}). */
    @Nullable T allocate() {
        if (inUse >= limit) {
            return null;
        }
        T object;
        if (freeCount > 0) {
            object = objects[freeSlots[--freeCount]];
            if (object == null) {
                throw new IllegalStateException("free slot without object");
            }
        } else {
            if (created == objects.length) {
                objects = Arrays.copyOf(objects, objects.length * 2);
            }
            object = factory.apply(created);
            objects[created++] = object;
        }
        object.live = true;
        inUse++;
        return object;
    }

    /** The live object in {@code slot} with {@code generation}, or null. */
    @Nullable T lookup(int slot, int generation) {
        if (slot < 0 || slot >= created) {
            return null;
        }
        T object = objects[slot];
        return object != null && object.live && object.generation == generation ? object : null;
    }

    /** Makes the object's handles invalid; the slot stays taken until {@link #free}. */
    void retire(T object) {
        if (object.live) {
            object.live = false;
            object.generation = (object.generation + 1) & HandleCodec.GENERATION_MASK;
        }
    }

    /** Retires the object (if not yet) and returns its slot for reuse. */
    void free(T object) {
        retire(object);
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = object.slot;
        inUse--;
    }

    /** Every object ever created, live or not (for teardown). */
    void forEachCreated(Consumer<T> action) {
        for (int i = 0; i < created; i++) {
            T object = objects[i];
            if (object != null) {
                action.accept(object);
            }
        }
    }

    /** Forgets every object: all handles die, all slots are free (interface teardown). */
    void clear() {
        freeCount = 0;
        for (int i = created - 1; i >= 0; i--) {
            T object = objects[i];
            if (object != null) {
                retire(object);
            }
            if (freeCount == freeSlots.length) {
                freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
            }
            freeSlots[freeCount++] = i;
        }
        inUse = 0;
    }
}
