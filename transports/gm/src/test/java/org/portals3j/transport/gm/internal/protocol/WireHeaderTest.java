package org.portals3j.transport.gm.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.Test;

class WireHeaderTest {
    private static final int MAX_HEADER = 256;
    private static final long MAX_PAYLOAD = 1L << 40;

    private final MemorySegment m = Arena.ofAuto().allocate(512);

    /** Why the message is malformed, or "" if it is well formed. */
    private static String reason(MemorySegment m, long received, int maxHeader, long maxPayload) {
        @Nullable String why = WireHeader.malformed(m, received, maxHeader, maxPayload);
        return why == null ? "" : why;
    }

    @Test
    void everyFieldReadsBackAsWritten() {
        WireHeader.write(m, WireHeader.KIND_RMA, 200, 7, -3, 12, WireHeader.fin(255, true), 1L << 33, 0x1234_5678_9abcL,
                -1L);
        assertThat(WireHeader.kind(m)).isEqualTo(WireHeader.KIND_RMA);
        assertThat(WireHeader.version(m)).isEqualTo(WireHeader.VERSION);
        assertThat(WireHeader.headerLength(m)).isEqualTo(200);
        assertThat(WireHeader.credits(m)).isEqualTo(7);
        assertThat(WireHeader.sequence(m)).isEqualTo(-3);
        assertThat(WireHeader.slot(m)).isEqualTo(12);
        assertThat(WireHeader.payloadLength(m)).isEqualTo(1L << 33);
        assertThat(WireHeader.rmaAddress(m)).isEqualTo(0x1234_5678_9abcL);
        assertThat(WireHeader.rmaKey(m)).isEqualTo(-1L);
        assertThat(WireHeader.finSlot(WireHeader.finField(m))).isEqualTo(255);
        assertThat(WireHeader.finRead(WireHeader.finField(m))).isTrue();
    }

    @Test
    void aFinFieldNamesItsSlotAndOutcomeAndIsNeverTheEmptyField() {
        assertThat(WireHeader.fin(0, false)).isNotEqualTo(WireHeader.NO_FIN);
        assertThat(WireHeader.finSlot(WireHeader.fin(0, false))).isZero();
        assertThat(WireHeader.finRead(WireHeader.fin(0, false))).isFalse();
        assertThat(WireHeader.finSlot(WireHeader.fin(7, true))).isEqualTo(7);
        assertThat(WireHeader.finRead(WireHeader.fin(7, true))).isTrue();
    }

    @Test
    void aControlMessageCarryingAFinFieldIsMalformed() {
        WireHeader.write(m, WireHeader.KIND_CREDIT, 0, 1, 0, 0, WireHeader.fin(3, true), 0, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH, MAX_HEADER, MAX_PAYLOAD)).contains("FIN field");
    }

    @Test
    void theLayoutIsLittleEndianAtTheDocumentedOffsets() {
        WireHeader.write(m, WireHeader.KIND_EAGER, 0x0102, 0x03040506, 0x0708090a, 0x0b0c0d0e, WireHeader.NO_FIN,
                0x10, 0x20, 0x30);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) 0x02);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 3)).isEqualTo((byte) 0x01);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 4)).isEqualTo((byte) 0x06);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 8)).isEqualTo((byte) 0x0a);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 12)).isEqualTo((byte) 0x0e);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 16)).isEqualTo((byte) 0x10);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 24)).isEqualTo((byte) 0x20);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 32)).isEqualTo((byte) 0x30);
        assertThat(m.get(ValueLayout.JAVA_INT_UNALIGNED, 40)).isZero();
        assertThat(WireHeader.LENGTH).isEqualTo(48);
    }

    @Test
    void wellFormedMessagesPass() {
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, WireHeader.NO_FIN, 100, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 10 + 100, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, WireHeader.NO_FIN, 1 << 20, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 10, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
        WireHeader.write(m, WireHeader.KIND_FIN, 0, 1, 0, 3, WireHeader.NO_FIN, 1, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
    }

    @Test
    void hostileMessagesAreRejectedWithAReason() {
        assertThat(reason(m, WireHeader.LENGTH - 1, MAX_HEADER, MAX_PAYLOAD)).contains("shorter");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, WireHeader.NO_FIN, 100, 0, 0);
        m.set(ValueLayout.JAVA_BYTE, WireHeader.VERSION_OFFSET, (byte) 9);
        assertThat(reason(m, WireHeader.LENGTH + 110, MAX_HEADER, MAX_PAYLOAD)).contains("version");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, WireHeader.NO_FIN, 101, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 110, MAX_HEADER, MAX_PAYLOAD)).contains("eager payload");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, WireHeader.NO_FIN, -1, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 110, MAX_HEADER, MAX_PAYLOAD)).isNotEmpty();
        WireHeader.write(m, WireHeader.KIND_EAGER, 300, 0, 0, 0, WireHeader.NO_FIN, 0, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 300, MAX_HEADER, MAX_PAYLOAD)).contains("header of 300");
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, WireHeader.NO_FIN, 100, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 20, MAX_HEADER, MAX_PAYLOAD)).contains("RMA message");
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, WireHeader.NO_FIN, MAX_PAYLOAD + 1, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 10, MAX_HEADER, MAX_PAYLOAD)).contains("RMA payload");
        WireHeader.write(m, WireHeader.KIND_CREDIT, 4, 0, 0, 0, WireHeader.NO_FIN, 0, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH + 4, MAX_HEADER, MAX_PAYLOAD)).contains("control");
        WireHeader.write(m, 77, 0, 0, 0, 0, WireHeader.NO_FIN, 0, 0, 0);
        assertThat(reason(m, WireHeader.LENGTH, MAX_HEADER, MAX_PAYLOAD)).contains("unknown kind 77");
    }
}
