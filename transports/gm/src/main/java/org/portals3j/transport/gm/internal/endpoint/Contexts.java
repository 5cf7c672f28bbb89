package org.portals3j.transport.gm.internal.endpoint;

/**
 * The 64-bit contexts this transport gives libgm with every operation, returned in its events: the kind in the top
 * byte, the peer's rank in the next 32 bits, an index (receive buffer, send slot, control buffer) in the low 24.
 */
final class Contexts {
    static final int RECEIVE = 1;
    static final int DATA = 2;
    static final int CONTROL = 3;
    static final int READ = 4;
    static final int DROP = 5;
    /** Indexes are below this. */
    static final int MAX_INDEX = 1 << 24;

    private Contexts() {
    }

    static long of(int kind, int peer, int index) {
        return (long) kind << 56 | ((long) peer & 0xffff_ffffL) << 24 | index;
    }

    static int kind(long context) {
        return (int) (context >>> 56);
    }

    static int peer(long context) {
        return (int) (context >>> 24 & 0xffff_ffffL);
    }

    static int index(long context) {
        return (int) (context & (MAX_INDEX - 1));
    }
}
