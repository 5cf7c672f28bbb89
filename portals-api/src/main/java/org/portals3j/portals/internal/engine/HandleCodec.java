package org.portals3j.portals.internal.engine;

/**
 * The bit layout of a handle value (implementation-defined, I-05):
 *
 * <pre>
 *  63..61  kind        1 = NI, 2 = ME, 3 = MD, 4 = EQ; 0 never names an object (PTL_EQ_NONE, PTL_MD_NONE)
 *  60..53  library     which Portals library instance (process) made it
 *  52..48  interface   the network interface index
 *  47..28  slot        the object's slot in its table (0 for an NI)
 *  27..0   generation  bumped whenever the slot's object dies, so stale handles are recognised
 * </pre>
 */
final class HandleCodec {
    static final int KIND_NI = 1;
    static final int KIND_ME = 2;
    static final int KIND_MD = 3;
    static final int KIND_EQ = 4;

    static final int GENERATION_MASK = (1 << 28) - 1;
    static final int SLOT_LIMIT = 1 << 20;

    private HandleCodec() {
    }

    static long encode(int kind, int library, int iface, int slot, int generation) {
        return ((long) kind << 61) | ((long) (library & 0xFF) << 53) | ((long) (iface & 0x1F) << 48)
                | ((long) (slot & (SLOT_LIMIT - 1)) << 28) | (generation & GENERATION_MASK);
    }

    static int kind(long handle) {
        return (int) (handle >>> 61);
    }

    static int library(long handle) {
        return (int) (handle >>> 53) & 0xFF;
    }

    static int iface(long handle) {
        return (int) (handle >>> 48) & 0x1F;
    }

    static int slot(long handle) {
        return (int) (handle >>> 28) & (SLOT_LIMIT - 1);
    }

    static int generation(long handle) {
        return (int) handle & GENERATION_MASK;
    }
}
