package org.portals3j.portals;

/**
 * What {@link Portals#mdUpdate} gives back.
 *
 * @param status   {@link ReturnCode#OK} if the update was made (or none was asked for),
 *                 {@link ReturnCode#NOUPDATE} if {@code testq} was not empty
 * @param previous the descriptor's value before the call ({@code *old_md}); always filled, also on
 *                 {@code NOUPDATE}
 */
public record MdUpdateResult(ReturnCode status, MemoryDescriptor previous) {

    public boolean updated() {
        return status == ReturnCode.OK;
    }
}
