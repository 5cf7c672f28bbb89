package org.portals3j.isotach.internal.noniso;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.portals3j.transport.Deposit;

/**
 * Builds frames byte by byte for tests that call {@link NonisoLayer#onHeader} directly, well-formed or not.
 * Every method returns a fresh heap segment of {@link NonisoFrame#MAX_LENGTH} + 8 bytes; the caller passes the
 * header length it wants the layer to see.
 */
final class HostileFrames {
    private final int ring;

    /** @param ring the receiver's ring size (control slots follow it) */
    HostileFrames(int ring) {
        this.ring = ring;
    }

    MemorySegment frame(byte kind, boolean credit, int slot, long creditValue) {
        MemorySegment h = MemorySegment.ofArray(new byte[NonisoFrame.MAX_LENGTH + 8]);
        NonisoFrame.writePrefix(h, kind, credit, slot, creditValue);
        return h;
    }

    MemorySegment data(int slot, int length) {
        MemorySegment h = frame(NonisoFrame.KIND_DATA, false, slot, 0);
        h.set(NonisoFrame.INT, NonisoFrame.OFF_LENGTH, length);
        return h;
    }

    MemorySegment dataWithCredit(int slot, int length, long credit) {
        MemorySegment h = frame(NonisoFrame.KIND_DATA, true, slot, credit);
        h.set(NonisoFrame.INT, NonisoFrame.OFF_LENGTH, length);
        return h;
    }

    MemorySegment readResponse(int slot, long value, int lvar, long pulse) {
        MemorySegment h = frame(NonisoFrame.KIND_READ_RESPONSE, false, slot, 0);
        h.set(NonisoFrame.INT, NonisoFrame.OFF_LENGTH, 0);
        h.set(NonisoFrame.LONG, NonisoFrame.OFF_VALUE, value);
        h.set(NonisoFrame.INT, NonisoFrame.OFF_READ_SLOT, lvar);
        h.set(NonisoFrame.LONG, NonisoFrame.OFF_PULSE, pulse);
        return h;
    }

    MemorySegment credit(long value) {
        return frame(NonisoFrame.KIND_CREDIT, true, ring + NonisoFrame.CONTROL_CREDIT, value);
    }

    MemorySegment creditRequest() {
        return frame(NonisoFrame.KIND_CREDIT_REQUEST, false, ring + NonisoFrame.CONTROL_CREDIT_REQUEST, 0);
    }

    MemorySegment barrier(long generation) {
        MemorySegment h = frame(NonisoFrame.KIND_BARRIER, false, ring + NonisoFrame.CONTROL_BARRIER, 0);
        h.set(NonisoFrame.LONG, NonisoFrame.OFF_GENERATION, generation);
        return h;
    }

    /** Sets one byte (to corrupt a well-formed frame). */
    static MemorySegment with(MemorySegment h, int offset, int value) {
        h.set(ValueLayout.JAVA_BYTE, offset, (byte) value);
        return h;
    }

    Deposit deposit() {
        return new Deposit();
    }
}
