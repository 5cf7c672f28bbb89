package org.portals3j.isotach.internal;

import java.lang.foreign.MemorySegment;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.internal.CacheLinePadding;

/**
 * What the transport side remembers of one source's message between its header and its deposit; written by the
 * thread that delivers that source's messages, so padded onto cache lines of its own (docs/isotach-switch-node.md).
 */
final class Intake extends IntakeFields {
    // After the fields (HotSpot lays out a superclass's fields first, and a class's longs before its other fields).
    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
    long q7;
}

/** Intake's fields, between the padding of its superclass and of its subclass. */
abstract class IntakeFields extends CacheLinePadding {
    /** 64 bytes before and after the copy: its array starts and ends on lines of its own. */
    private static final int SLACK = 64;

    /** Whether the message being received is the noniso module's. */
    boolean noniso;
    /** Whether its ISO packet was accepted (its payload is being deposited in {@link #isoHeader}'s slot). */
    boolean isoAccepted;
    /** The accepted ISO frame's header, until its payload is in place. */
    final MemorySegment isoHeader =
            MemorySegment.ofArray(new byte[SLACK + Frame.ISO_LENGTH + SLACK]).asSlice(SLACK, Frame.ISO_LENGTH);
}
