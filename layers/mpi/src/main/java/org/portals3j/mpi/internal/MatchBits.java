package org.portals3j.mpi.internal;

/**
 * The 64 match bits of a message on the receive portal (Portals 3.2 section 5.3's MPI example, as
 * mpi-java-api.md section 4.11 suggests):
 * <pre>
 *  63     62 ........ 48   47 ........ 32   31 .......... 0
 * [long] [context, 15 bits] [source, 16 bits] [tag, 32 bits]
 * </pre>
 * {@code long} is 1 for a rendezvous header and 0 for an eager message; receives ignore it. The source is the
 * sender's rank in the communicator; tags run from 0 to {@link #TAG_UB} (the sign bit of the tag field is never
 * set). ANY_SOURCE and ANY_TAG are ignore bits.
 */
public final class MatchBits {
    /** The protocol bit: set on a rendezvous header. */
    public static final long LONG = 1L << 63;
    /** The largest tag: the whole non-negative Java int. */
    public static final int TAG_UB = Integer.MAX_VALUE;
    /** The largest context id (15 bits). */
    public static final int MAX_CONTEXT = (1 << 15) - 1;
    /** Communicator sizes up to this fit the source field. */
    public static final int MAX_RANKS = 1 << 16;

    private static final int CONTEXT_SHIFT = 48;
    private static final int SOURCE_SHIFT = 32;
    private static final long SOURCE_BITS = 0xFFFFL << SOURCE_SHIFT;
    private static final long TAG_BITS = 0xFFFF_FFFFL;

    private MatchBits() {
    }

    /** The bits of a message from {@code source} with {@code tag} on context {@code context}. */
    public static long of(int context, int source, int tag) {
        return ((long) context << CONTEXT_SHIFT) | ((long) source << SOURCE_SHIFT) | (tag & TAG_BITS);
    }

    /** The ignore bits of a receive: the protocol bit, and the wildcards it uses. */
    public static long ignore(boolean anySource, boolean anyTag) {
        return LONG | (anySource ? SOURCE_BITS : 0) | (anyTag ? TAG_BITS : 0);
    }

    /** Whether a message with {@code bits} matches a receive with {@code want} and {@code ignore}. */
    public static boolean matches(long bits, long want, long ignore) {
        return ((bits ^ want) & ~ignore) == 0;
    }

    public static boolean isLong(long bits) {
        return (bits & LONG) != 0;
    }

    public static int source(long bits) {
        return (int) ((bits & SOURCE_BITS) >>> SOURCE_SHIFT);
    }

    public static int tag(long bits) {
        return (int) (bits & TAG_BITS);
    }
}
