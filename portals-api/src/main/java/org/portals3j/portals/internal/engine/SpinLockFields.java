package org.portals3j.portals.internal.engine;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.internal.CacheLinePadding;

/** Padding, then the lock word and its holder (superclass fields are laid out first). */
abstract class SpinLockFields extends CacheLinePadding {
    /** 0 free, 1 held. */
    volatile int state;
    /** The holder, written and cleared by it under the lock; read by others only to detect re-entry. */
    @Nullable Thread owner;
}
