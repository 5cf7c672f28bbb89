package org.portals3j.portals.internal.engine;

/** An object that lives in a {@link SlotTable} slot and is named by handles carrying its generation. */
abstract class Slotted {
    final int slot;
    int generation;
    /** True while handles to it are valid. */
    boolean live;

    Slotted(int slot) {
        this.slot = slot;
    }
}
