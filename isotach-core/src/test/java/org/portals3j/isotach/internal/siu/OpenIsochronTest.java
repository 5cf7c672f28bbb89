package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;

/** The open isochron alone: what it holds from SOI to EOI, its bound, and the ISO frames it writes. */
class OpenIsochronTest {
    private static final MemorySegment PAYLOAD = MemorySegment.ofArray(new byte[64]);

    private static void add(OpenIsochron iso, int dest, int distance, int isoId) {
        iso.add(dest, distance, 0x10, 0, isoId, dest + 1, 8, 0, 0, false, 0, PAYLOAD, 16L * dest, 100 + dest);
    }

    @Test
    void itHoldsPacketsInArrivalOrderWithTheFarthestDistanceAndTheFirstPacketsId() {
        OpenIsochron iso = new OpenIsochron(4);
        assertThat(iso.isEmpty()).isTrue();
        add(iso, 2, 1, 7);
        add(iso, 1, 3, 7);
        add(iso, 3, 2, 7);
        assertThat(iso.size()).isEqualTo(3);
        assertThat(iso.maxDistance()).isEqualTo(3);
        assertThat(iso.isochronId()).isEqualTo(7);
        assertThat(iso.destination(0)).isEqualTo(2);
        assertThat(iso.destination(1)).isEqualTo(1);
        assertThat(iso.payloadOffset(2)).isEqualTo(48);
        assertThat(iso.completionToken(1)).isEqualTo(101);
        iso.clear();
        assertThat(iso.isEmpty()).isTrue();
        assertThat(iso.maxDistance()).isZero();
    }

    @Test
    void anIsochronLongerThanTheSendBufferIsRefusedAndKeepsWhatItHeld() {
        OpenIsochron iso = new OpenIsochron(2);
        add(iso, 1, 1, 0);
        add(iso, 2, 1, 0);
        assertThatThrownBy(() -> add(iso, 3, 1, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("send buffer");
        assertThat(iso.size()).isEqualTo(2);
    }

    @Test
    void aPacketIsWrittenAsAnIsoFrameWithItsStampAndAnEmptyClockSection() {
        OpenIsochron iso = new OpenIsochron(2);
        int onePacket = Frame.PREFIX_START_OF_ISOCHRON | Frame.PREFIX_END_OF_ISOCHRON;
        iso.add(1, 1, 0x12, onePacket, 9, 5, 0, 0xABCDL, 42, true, 77, MemorySegment.NULL, 0, -1);
        MemorySegment frame = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        ClockSection.addMark(frame, Frame.O_ISO_CLOCK, 3, 4); // left over from an earlier frame
        iso.writeIsoFrame(0, frame, 1234);
        assertThat(Frame.kind(frame)).isEqualTo(Frame.ISO);
        assertThat(Frame.u8(frame, Frame.O_BYTE2)).isEqualTo(0x12);
        assertThat(Frame.u8(frame, Frame.O_BYTE3)).isEqualTo(onePacket);
        assertThat(Frame.u8(frame, Frame.O_BYTE4)).isEqualTo(9);
        assertThat(Frame.u8(frame, Frame.O_BYTE5)).isEqualTo(1);
        assertThat(Frame.i64(frame, Frame.O_ISO_TIMESTAMP)).isEqualTo(1234);
        assertThat(Frame.i64(frame, Frame.O_ISO_CREDIT)).isEqualTo(77);
        assertThat(Frame.i32(frame, Frame.O_ISO_SLOT)).isEqualTo(5);
        assertThat(Frame.i64(frame, Frame.O_ISO_ADDRESS)).isEqualTo(0xABCDL);
        assertThat(Frame.i64(frame, Frame.O_ISO_OPERAND)).isEqualTo(42);
        assertThat(ClockSection.flags(frame, Frame.O_ISO_CLOCK)).isZero();
    }
}
