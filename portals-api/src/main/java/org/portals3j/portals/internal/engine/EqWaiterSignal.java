package org.portals3j.portals.internal.engine;

import org.portals3j.transport.internal.CacheLinePadding;

/** The cache line a waiting thread watches: padding, then the fields (superclass fields are laid out first). */
abstract class EqWaiterSignal extends CacheLinePadding {
    /** {@code ticket << 2 | outcome} of the last wait that ended; written only by the thread that ends it. */
    volatile long signal;
    /** Set by the waiting thread once it may park; only then does a wake pay for an unpark. */
    volatile boolean mayPark;
}
