package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.NiFailType;

/**
 * The fields of {@code ptl_event_t} (Portals 3.2 spec §3.9.4), written by the engine and read through the public
 * {@link org.portals3j.portals.Event}. The fields are {@code protected}: the engine (this package) writes
 * them; users see only the getters of {@code Event}.
 */
public abstract class EventFields {
    protected EventKind type = EventKind.PUT_START;
    protected int initiatorNid;
    protected int initiatorPid;
    protected int uid;
    /** Portals 3.3 {@code jid}: the initiator's job id. */
    protected int jid;
    protected int portal;
    protected long matchBits;
    protected long rlength;
    protected long mlength;
    protected long offset;
    protected long mdHandle;
    // mem_desc: the descriptor's state immediately after the event (Portals 3.2 spec §3.9.4)
    protected MemorySegment mdStart = MemorySegment.NULL;
    protected long mdLength;
    protected int mdThreshold;
    protected long mdMaxOffset;
    protected int mdOptions;
    protected @Nullable Object mdUserPtr;
    protected long mdEventq;
    protected long mdMaxSize;
    protected long hdrData;
    protected long link;
    protected NiFailType niFailType = NiFailType.OK;
    protected long sequence;

    protected EventFields() {
    }

    /** Copies every field of {@code other} into this one. */
    protected final void copyFields(EventFields other) {
        type = other.type;
        initiatorNid = other.initiatorNid;
        initiatorPid = other.initiatorPid;
        uid = other.uid;
        jid = other.jid;
        portal = other.portal;
        matchBits = other.matchBits;
        rlength = other.rlength;
        mlength = other.mlength;
        offset = other.offset;
        mdHandle = other.mdHandle;
        mdStart = other.mdStart;
        mdLength = other.mdLength;
        mdThreshold = other.mdThreshold;
        mdMaxOffset = other.mdMaxOffset;
        mdOptions = other.mdOptions;
        mdUserPtr = other.mdUserPtr;
        mdEventq = other.mdEventq;
        mdMaxSize = other.mdMaxSize;
        hdrData = other.hdrData;
        link = other.link;
        niFailType = other.niFailType;
        // Written last, as the spec asks of ptl_event_t.sequence (Portals 3.2 spec §3.9.4).
        sequence = other.sequence;
    }
}
