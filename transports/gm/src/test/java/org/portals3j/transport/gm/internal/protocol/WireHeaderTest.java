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
        WireHeader.write(m, WireHeader.KIND_RMA, 200, 7, -3, 12, 1L << 33, 0x1234_5678_9abcL, -1L);
        assertThat(WireHeader.kind(m)).isEqualTo(WireHeader.KIND_RMA);
        assertThat(WireHeader.version(m)).isEqualTo(WireHeader.VERSION);
        assertThat(WireHeader.headerLength(m)).isEqualTo(200);
        assertThat(WireHeader.credits(m)).isEqualTo(7);
        assertThat(WireHeader.sequence(m)).isEqualTo(-3);
        assertThat(WireHeader.slot(m)).isEqualTo(12);
        assertThat(WireHeader.payloadLength(m)).isEqualTo(1L << 33);
        assertThat(WireHeader.rmaAddress(m)).isEqualTo(0x1234_5678_9abcL);
        assertThat(WireHeader.rmaKey(m)).isEqualTo(-1L);
    }

    @Test
    void theLayoutIsLittleEndianAtTheDocumentedOffsets() {
        WireHeader.write(m, WireHeader.KIND_EAGER, 0x0102, 0x03040506, 0x0708090a, 0x0b0c0d0e, 0x10, 0x20, 0x30);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 0)).isEqualTo((byte) 1);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 2)).isEqualTo((byte) 0x02);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 3)).isEqualTo((byte) 0x01);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 4)).isEqualTo((byte) 0x06);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 8)).isEqualTo((byte) 0x0a);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 12)).isEqualTo((byte) 0x0e);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 16)).isEqualTo((byte) 0x10);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 24)).isEqualTo((byte) 0x20);
        assertThat(m.get(ValueLayout.JAVA_BYTE, 32)).isEqualTo((byte) 0x30);
        assertThat(WireHeader.LENGTH).isEqualTo(40);
    }

    @Test
    void wellFormedMessagesPass() {
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, 100, 0, 0);
        assertThat(reason(m, 40 + 10 + 100, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, 1 << 20, 0, 0);
        assertThat(reason(m, 50, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
        WireHeader.write(m, WireHeader.KIND_FIN, 0, 1, 0, 3, 1, 0, 0);
        assertThat(reason(m, 40, MAX_HEADER, MAX_PAYLOAD)).isEmpty();
    }

    @Test
    void hostileMessagesAreRejectedWithAReason() {
        assertThat(reason(m, 39, MAX_HEADER, MAX_PAYLOAD)).contains("shorter");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, 100, 0, 0);
        m.set(ValueLayout.JAVA_BYTE, WireHeader.VERSION_OFFSET, (byte) 9);
        assertThat(reason(m, 150, MAX_HEADER, MAX_PAYLOAD)).contains("version");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, 101, 0, 0);
        assertThat(reason(m, 150, MAX_HEADER, MAX_PAYLOAD)).contains("eager payload");
        WireHeader.write(m, WireHeader.KIND_EAGER, 10, 0, 0, 0, -1, 0, 0);
        assertThat(reason(m, 150, MAX_HEADER, MAX_PAYLOAD)).isNotEmpty();
        WireHeader.write(m, WireHeader.KIND_EAGER, 300, 0, 0, 0, 0, 0, 0);
        assertThat(reason(m, 340, MAX_HEADER, MAX_PAYLOAD)).contains("header of 300");
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, 100, 0, 0);
        assertThat(reason(m, 60, MAX_HEADER, MAX_PAYLOAD)).contains("RMA message");
        WireHeader.write(m, WireHeader.KIND_RMA, 10, 0, 0, 0, MAX_PAYLOAD + 1, 0, 0);
        assertThat(reason(m, 50, MAX_HEADER, MAX_PAYLOAD)).contains("RMA payload");
        WireHeader.write(m, WireHeader.KIND_CREDIT, 4, 0, 0, 0, 0, 0, 0);
        assertThat(reason(m, 44, MAX_HEADER, MAX_PAYLOAD)).contains("control");
        WireHeader.write(m, 77, 0, 0, 0, 0, 0, 0, 0);
        assertThat(reason(m, 40, MAX_HEADER, MAX_PAYLOAD)).contains("unknown kind 77");
    }
}
