package org.portals3j.portals.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

class MessageHeaderTest {

    private static String outcome(@Nullable MessageType type) {
        return type == null ? "rejected" : type.name();
    }

    private static MessageHeader put(MemorySegment buf) {
        return new MessageHeader().wrap(buf).begin(MessageType.PUT, 2).initiator(3, 4).user(5).target(6, 7)
                .portal(8).cookie(9).matchBits(0x8000_0000_0000_0001L).offset(10).mdHandle(0x1122334455667788L)
                .length(11).hdrData(-2L).exchange(12);
    }

    @Test
    void fieldsSitAtTheDocumentedLittleEndianOffsets() {
        MemorySegment buf = MessageHeader.allocate();
        put(buf);
        ValueLayout.OfInt i32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        ValueLayout.OfLong i64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
        assertThat(buf.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
        assertThat(buf.get(ValueLayout.JAVA_BYTE, 1)).isEqualTo((byte) 1);
        assertThat(buf.get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) 2);
        assertThat(buf.get(i32, 4)).isEqualTo(3);
        assertThat(buf.get(i32, 8)).isEqualTo(4);
        assertThat(buf.get(i32, 12)).isEqualTo(5);
        assertThat(buf.get(i32, 16)).isEqualTo(6);
        assertThat(buf.get(i32, 20)).isEqualTo(7);
        assertThat(buf.get(i32, 24)).isEqualTo(8);
        assertThat(buf.get(i32, 28)).isEqualTo(9);
        assertThat(buf.get(i64, 32)).isEqualTo(0x8000_0000_0000_0001L);
        assertThat(buf.get(i64, 40)).isEqualTo(10);
        assertThat(buf.get(ValueLayout.JAVA_BYTE, 48)).isEqualTo((byte) 0x88); // little-endian low byte first
        assertThat(buf.get(i64, 56)).isEqualTo(11);
        assertThat(buf.get(i64, 64)).isZero();
        assertThat(buf.get(i64, 72)).isEqualTo(-2L);
        assertThat(buf.get(i64, 80)).isEqualTo(12);
    }

    @Test
    void aWellFormedPutValidates() {
        MemorySegment buf = MessageHeader.allocate();
        MessageHeader h = put(buf);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 4))).isEqualTo("PUT");
    }

    @Test
    void everyKindOfMalformationIsRejected() {
        MemorySegment buf = MessageHeader.allocate();
        MessageHeader h = put(buf);
        assertThat(outcome(h.validate(MessageHeader.LENGTH - 1, 11, 4))).as("short header").isEqualTo("rejected");
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 12, 4))).as("payload length differs from length")
                .isEqualTo("rejected");
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 2))).as("no such interface").isEqualTo("rejected");
        buf.set(ValueLayout.JAVA_BYTE, 0, (byte) 2);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 4))).as("unknown version").isEqualTo("rejected");
        put(buf);
        buf.set(ValueLayout.JAVA_BYTE, 1, (byte) 9);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 4))).as("unknown type").isEqualTo("rejected");
        put(buf);
        buf.set(ValueLayout.JAVA_BYTE, 3, (byte) 1);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 4))).as("reserved byte set").isEqualTo("rejected");
        put(buf).length(-1);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, -1, 4))).as("length with the top bit set")
                .isEqualTo("rejected");
        put(buf).manipulatedLength(1);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 11, 4))).as("a put carries no manipulated length")
                .isEqualTo("rejected");
        h.begin(MessageType.REPLY, 0).length(4).manipulatedLength(5);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 5, 4))).as("reply longer than requested")
                .isEqualTo("rejected");
        h.begin(MessageType.GET, 0).length(4);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 1, 4))).as("get with a payload").isEqualTo("rejected");
        h.begin(MessageType.ACK, 0).length(4).manipulatedLength(4);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 0, 4))).isEqualTo("ACK");
    }

    @Test
    void aGetPutCarriesItsBytesUpToTheSwapLimitAndNoManipulatedLength() {
        MessageHeader h = new MessageHeader();
        h.begin(MessageType.GETPUT, 0).length(MessageHeader.MAX_GETPUT_LENGTH);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, MessageHeader.MAX_GETPUT_LENGTH, 4))).isEqualTo("GETPUT");
        h.begin(MessageType.GETPUT, 0).length(MessageHeader.MAX_GETPUT_LENGTH + 1);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, MessageHeader.MAX_GETPUT_LENGTH + 1, 4)))
                .as("more than a swap may carry").isEqualTo("rejected");
        h.begin(MessageType.GETPUT, 0).length(8);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 7, 4))).as("payload differs from length")
                .isEqualTo("rejected");
        h.begin(MessageType.GETPUT, 0).length(8).manipulatedLength(8);
        assertThat(outcome(h.validate(MessageHeader.LENGTH, 8, 4))).as("a request carries no manipulated length")
                .isEqualTo("rejected");
        assertThat(MessageType.of(5) == MessageType.GETPUT).as("wire code 5").isTrue();
        assertThat(MessageType.GETPUT.code()).isEqualTo(5);
    }

    @Test
    void aLoadedHeaderIsACopyThatLaterChangesToTheReceivedBytesDoNotReach() {
        MemorySegment received = MessageHeader.allocate();
        put(received);
        MessageHeader rx = new MessageHeader().load(received);
        put(received).portal(99).matchBits(7).length(1L << 40);
        assertThat(rx.portal()).isEqualTo(8);
        assertThat(rx.matchBits()).isEqualTo(0x8000_0000_0000_0001L);
        assertThat(outcome(rx.validate(MessageHeader.LENGTH, 11, 4))).isEqualTo("PUT");
    }

    @Test
    void aHeaderWritesIntoItsOwnSegmentWhatAWrappedOneWritesIntoItsBuffer() {
        MessageHeader own = new MessageHeader();
        MemorySegment wrapped = MessageHeader.allocate();
        put(wrapped);
        own.begin(MessageType.PUT, 2).initiator(3, 4).user(5).target(6, 7).portal(8).cookie(9)
                .matchBits(0x8000_0000_0000_0001L).offset(10).mdHandle(0x1122334455667788L).length(11).hdrData(-2L)
                .exchange(12);
        assertThat(own.segment().byteSize()).isEqualTo(MessageHeader.LENGTH);
        assertThat(MemorySegment.mismatch(own.segment(), 0, MessageHeader.LENGTH, wrapped, 0, MessageHeader.LENGTH))
                .isEqualTo(-1L);
    }

    @Test
    void onlyAHeapByteArrayFromItsFirstByteCanBeWrapped() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeBuffer = arena.allocate(MessageHeader.LENGTH);
            assertThatThrownBy(() -> new MessageHeader().wrap(nativeBuffer))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("heap segment");
        }
        MemorySegment slice = MemorySegment.ofArray(new byte[MessageHeader.LENGTH + 8]).asSlice(8);
        assertThatThrownBy(() -> new MessageHeader().wrap(slice))
                .isInstanceOf(IllegalArgumentException.class);
        MemorySegment longs = MemorySegment.ofArray(new long[MessageHeader.LENGTH / 8]);
        assertThatThrownBy(() -> new MessageHeader().wrap(longs))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new MessageHeader().wrap(MemorySegment.ofArray(new byte[8])))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("< " + MessageHeader.LENGTH);
    }
}
