package org.portals3j.transport.internal;

import org.checkerframework.checker.nullness.qual.Nullable;

/** Padding, then the lock word and its holder (superclass fields are laid out first). */
abstract class SpinLockFields extends CacheLinePadding {
    /** 0 free, 1 held. */
    volatile int state;
    /** The holder, written and cleared by it under the lock; read by others only to detect re-entry. */
    @Nullable Thread owner;
}
