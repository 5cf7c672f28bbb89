package org.portals3j.portals;

import java.lang.foreign.MemorySegment;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.portals.internal.engine.EventFields;

/**
 * {@code ptl_event_t} (Portals 3.2 spec §3.9.4): one event taken from an event queue.
 *
 * <p>Mutable and reusable: {@link Portals#eqGet} and {@link Portals#eqWait} fill an {@code Event} the
 * caller owns, so taking events allocates nothing. The getters that return objects
 * ({@link #initiator()}, {@link #mdHandle()}, {@link #memDesc()}) build them on each call; the
 * primitive getters next to them do not.
 *
 * <p>What each field holds for each kind of event is tabulated in the package documentation.
 */
public final class Event extends EventFields {

    public Event() {
    }

    /** Copies {@code other} into this event. */
    public Event copyFrom(Event other) {
        copyFields(other);
        return this;
    }

    /** {@code type}: the kind of event. */
    public EventKind type() {
        return type;
    }

    /** {@code initiator}: the id of the process that initiated the operation (see the package table). */
    public ProcessId initiator() {
        return new ProcessId(initiatorNid, initiatorPid);
    }

    public int initiatorNid() {
        return initiatorNid;
    }

    public int initiatorPid() {
        return initiatorPid;
    }

    /** {@code uid}: the user id of the initiator (A-18; the spec lists the field without describing it). */
    public int uid() {
        return uid;
    }

    /**
     * Portals 3.3 {@code jid} (3.3 &sect;3.11.4): the job id of the process that initiated the operation,
     * what its {@link Portals33#getJid} returns. Every process that can reach this one belongs to its
     * job, so this is always this job's id; a 3.2 library fills it too, though 3.2 has no such field.
     */
    public int jid() {
        return jid;
    }

    /** {@code portal}: the portal index named by the request (Portals 3.2 spec §3.9.4). */
    public int portal() {
        return portal;
    }

    /** {@code match_bits}: the request's match bits (Portals 3.2 spec §3.9.4); all 64 bits, bit 63 included. */
    public long matchBits() {
        return matchBits;
    }

    /** {@code rlength}: the length the request asked for (Portals 3.2 spec §3.9.4). */
    public long rlength() {
        return rlength;
    }

    /** {@code mlength}: the number of bytes actually manipulated (Portals 3.2 spec §3.9.4). */
    public long mlength() {
        return mlength;
    }

    /** {@code offset}: the displacement into the region the operation used (Portals 3.2 spec §3.9.4). */
    public long offset() {
        return offset;
    }

    /** {@code md_handle}: the memory descriptor the event is about (Portals 3.2 spec §3.9.4). */
    public MdHandle mdHandle() {
        return new MdHandle(mdHandle);
    }

    public long mdHandleValue() {
        return mdHandle;
    }

    /**
     * {@code mem_desc}: the descriptor's state immediately after the event was processed (Portals 3.2 spec §3.9.4,
     *
     */
    public MemoryDescriptor memDesc() {
        return new MemoryDescriptor(mdStart, mdLength, mdThreshold, mdMaxOffset, mdOptions, mdUserPtr,
                new EqHandle(mdEventq), mdMaxSize);
    }

    /** {@code mem_desc.start}. */
    public MemorySegment memDescStart() {
        return mdStart;
    }

    /** {@code mem_desc.length}. */
    public long memDescLength() {
        return mdLength;
    }

    /** {@code mem_desc.threshold}. */
    public int memDescThreshold() {
        return mdThreshold;
    }

    /** {@code mem_desc.max_offset}. */
    public long memDescMaxOffset() {
        return mdMaxOffset;
    }

    /** Portals 3.3 {@code md.max_size} (3.3 &sect;3.10.1): the MD's {@link MemoryDescriptor#maxSize()}. */
    public long memDescMaxSize() {
        return mdMaxSize;
    }

    /** {@code mem_desc.options}: the {@link MdOption} bits. */
    public int memDescOptions() {
        return mdOptions;
    }

    /** {@code mem_desc.eventq}, as the raw handle value ({@code 0} for {@link EqHandle#NONE}). */
    public long memDescEventqValue() {
        return mdEventq;
    }

    /** {@code mem_desc.user_ptr}. */
    public @Nullable Object userPtr() {
        return mdUserPtr;
    }

    /**
     * {@code hdr_data}: the 64 bits of out-of-band data given to {@code PtlPut} (Portals 3.2 spec §3.9.4); 0 otherwise.
     */
    public long hdrData() {
        return hdrData;
    }

    /**
     * {@code link}: the same on the START and END/FAIL events of one operation (the START event's
     * {@link #sequence()}); on an UNLINK event, the sequence of the event that caused the unlink, or 0
     * if no event caused it. In a {@link Portals33} library the same holds within the
     * event's queue; an END whose START was not logged ({@link MdOption#EVENT_START_DISABLE}) has link 0,
     * and so has an UNLINK whose causing END was not logged.
     */
    public long link() {
        return link;
    }

    /** {@code ni_fail_type}: why a {@code *_FAIL} event failed; {@link NiFailType#OK} otherwise. */
    public NiFailType niFailType() {
        return niFailType;
    }

    /**
     * {@code sequence}: unique for each event of a network interface, increasing, starting at 1.
     * In a {@link Portals33} library each event queue numbers its own events 1, 2, 3, ... (3.3 &sect;3.11.4);
     * an event the full queue lost still took its number, so a gap shows where events were lost.
     */
    public long sequence() {
        return sequence;
    }

    @Override
    public String toString() {
        return type.specName() + "{seq=" + sequence + ", link=" + link + ", initiator=" + initiator()
                + ", portal=" + portal + ", match=0x" + Long.toHexString(matchBits) + ", rlength=" + rlength
                + ", mlength=" + mlength + ", offset=" + offset + ", md=0x" + Long.toHexString(mdHandle)
                + ", threshold=" + mdThreshold + ", hdr=0x" + Long.toHexString(hdrData)
                + (niFailType != NiFailType.OK ? ", fail=" + niFailType : "") + "}";
    }
}
