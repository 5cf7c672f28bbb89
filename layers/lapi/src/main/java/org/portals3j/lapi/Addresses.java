package org.portals3j.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The addresses one context issues, and what they stand for (LAPI_Addr_set and LAPI_Address_init man pages; our
 * choice of tokens): header handlers, counters and
 * exposed regions get tokens with a tag in bits 56..62, so they are at least 2^56: never an Addr_set index
 * ({@code 1..LOC_ADDRTBL_SZ-1}) and never a user-space address of the C program (below 2^47 on x86-64 and AArch64).
 * Lookups by token are array reads (no allocation); counters made on a C cell are found by their cell's address.
 */
final class Addresses {
    static final long TAG_MASK = 0x7FL << 56;
    static final long HANDLER_TAG = 0x41L << 56;
    static final long COUNTER_TAG = 0x42L << 56;
    static final long REGION_TAG = 0x43L << 56;
    /** Regions: bits 40..55 the region's number, bits 0..39 the byte offset. */
    static final int REGION_SHIFT = 40;
    static final long MAX_REGION_BYTES = 1L << REGION_SHIFT;
    static final int MAX_REGIONS = 1 << 16;
    static final int MAX_HANDLERS = 1 << 20;
    static final int MAX_COUNTERS = 1 << 24;

    private final Progress progress;
    private final Arena arena = Arena.ofAuto();
    private final @Nullable HeaderHandler[] table;
    private volatile @Nullable HeaderHandler[] handlers = new HeaderHandler[16];
    private int handlerCount;
    private final Map<HeaderHandler, Long> handlerTokens = new IdentityHashMap<>();
    private volatile @Nullable LapiCounter[] counters = new LapiCounter[16];
    private int counterCount;
    private final LongMap<LapiCounter> cellCounters = new LongMap<>();
    private volatile @Nullable MemorySegment[] regions = new MemorySegment[4];
    private int regionCount;
    private MemorySegment cellBlock = MemorySegment.NULL;
    private int cellsUsed;

    Addresses(int tableSize, Progress progress) {
        this.table = new HeaderHandler[tableSize];
        this.progress = progress;
    }

    int tableSize() {
        return table.length;
    }

    void set(int index, @Nullable HeaderHandler handler) {
        synchronized (table) {
            table[index] = handler;
        }
    }

    @Nullable HeaderHandler get(int index) {
        synchronized (table) {
            return table[index];
        }
    }

    synchronized long address(HeaderHandler handler) {
        Long known = handlerTokens.get(handler);
        if (known != null) {
            return known;
        }
        if (handlerCount == MAX_HANDLERS) {
            throw new LapiException(LapiError.MEMORY_EXHAUSTED, "more than " + MAX_HANDLERS + " handler addresses");
        }
        @Nullable HeaderHandler[] h = handlers;
        if (handlerCount == h.length) {
            h = Arrays.copyOf(h, h.length * 2);
        }
        h[handlerCount] = handler;
        handlers = h;
        long token = HANDLER_TAG | handlerCount++;
        handlerTokens.put(handler, token);
        return token;
    }

    /** The handler {@code hdrHdl} names at this task (index or token), or null; remote input. */
    @Nullable HeaderHandler resolveHandler(long hdrHdl, AddressResolver resolver) {
        if (hdrHdl > 0 && hdrHdl < table.length) {
            return get((int) hdrHdl);
        }
        if ((hdrHdl & TAG_MASK) == HANDLER_TAG) {
            long id = hdrHdl & ~TAG_MASK;
            @Nullable HeaderHandler[] h = handlers;
            return id < h.length ? h[(int) id] : null;
        }
        return hdrHdl == 0 ? null : resolver.headerHandler(hdrHdl);
    }

    synchronized LapiCounter newCounter() {
        if (counterCount == MAX_COUNTERS) {
            throw new LapiException(LapiError.MEMORY_EXHAUSTED, "more than " + MAX_COUNTERS + " counters");
        }
        if (cellsUsed == 0 || cellsUsed * 8L == cellBlock.byteSize()) {
            cellBlock = arena.allocate(8 * 256L, 8);
            cellsUsed = 0;
        }
        MemorySegment cell = cellBlock.asSlice(cellsUsed++ * 8L, 8);
        @Nullable LapiCounter[] c = counters;
        if (counterCount == c.length) {
            c = Arrays.copyOf(c, c.length * 2);
        }
        LapiCounter counter = new LapiCounter(cell, COUNTER_TAG | counterCount, progress);
        c[counterCount++] = counter;
        counters = c;
        return counter;
    }

    synchronized LapiCounter counterAt(MemorySegment cell) {
        long address = cell.address();
        LapiCounter known = cellCounters.get(address);
        if (known != null) {
            return known;
        }
        LapiCounter counter = new LapiCounter(cell.asSlice(0, 8), address, progress);
        cellCounters.put(address, counter);
        return counter;
    }

    /** The counter {@code address} names at this task, or null; remote input. */
    @Nullable LapiCounter resolveCounter(long address, LapiContext context, AddressResolver resolver) {
        if ((address & TAG_MASK) == COUNTER_TAG) {
            long id = address & ~TAG_MASK;
            @Nullable LapiCounter[] c = counters;
            return id < c.length ? c[(int) id] : null;
        }
        if ((address & TAG_MASK) != 0) {
            return null;
        }
        LapiCounter known;
        synchronized (this) {
            known = cellCounters.get(address);
        }
        return known != null ? known : resolver.counter(context, address);
    }

    synchronized long expose(MemorySegment region) {
        if (region.byteSize() > MAX_REGION_BYTES) {
            throw new IllegalArgumentException("a region of " + region.byteSize() + " bytes: expose at most "
                    + MAX_REGION_BYTES + " bytes at a time (split it)");
        }
        if (regionCount == MAX_REGIONS) {
            throw new LapiException(LapiError.MEMORY_EXHAUSTED, "more than " + MAX_REGIONS + " exposed regions");
        }
        @Nullable MemorySegment[] r = regions;
        if (regionCount == r.length) {
            r = Arrays.copyOf(r, r.length * 2);
        }
        r[regionCount] = region;
        regions = r;
        return REGION_TAG | ((long) regionCount++ << REGION_SHIFT);
    }

    /** The {@code len} bytes at {@code address}, or null if they are not all inside one region; remote input. */
    @Nullable MemorySegment resolveMemory(long address, long len, boolean write, AddressResolver resolver) {
        if (len < 0) {
            return null;
        }
        if ((address & TAG_MASK) == REGION_TAG) {
            int id = (int) ((address & ~TAG_MASK) >>> REGION_SHIFT);
            long offset = address & (MAX_REGION_BYTES - 1);
            @Nullable MemorySegment[] r = regions;
            MemorySegment region = id < r.length ? r[id] : null;
            if (region == null || offset > region.byteSize() || len > region.byteSize() - offset
                    || (write && region.isReadOnly())) {
                return null;
            }
            return region.asSlice(offset, len);
        }
        if ((address & TAG_MASK) != 0 || address == 0) {
            return null;
        }
        MemorySegment m = resolver.memory(address, len, write);
        return m != null && m.byteSize() >= len ? m : null;
    }
}
