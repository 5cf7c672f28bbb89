package org.portals3j.transport.gm.internal.nativeaccess;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** The Java layouts against the offsets gmx.h fixes for struct gmx_event and struct gmx_port_options. */
class GmEventsLayoutTest {

    @Test
    void gmxEventIs48BytesWithTheHeadersOffsets() {
        assertThat(GmEvents.LAYOUT.byteSize()).isEqualTo(48);
        assertThat(GmEvents.CONTEXT).isZero();
        assertThat(GmEvents.BUFFER).isEqualTo(8);
        assertThat(GmEvents.LENGTH).isEqualTo(16);
        assertThat(GmEvents.TYPE).isEqualTo(24);
        assertThat(GmEvents.STATUS).isEqualTo(28);
        assertThat(GmEvents.SENDER_NODE).isEqualTo(32);
        assertThat(GmEvents.SENDER_PORT).isEqualTo(34);
        assertThat(GmEvents.SIZE).isEqualTo(35);
        assertThat(GmEvents.PRIORITY).isEqualTo(36);
    }

    @Test
    void gmxPortOptionsIs40Bytes() {
        assertThat(Libgm.PORT_OPTIONS.byteSize()).isEqualTo(40);
        assertThat(Libgm.PORT_OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("node_id"))).isEqualTo(16);
        assertThat(Libgm.PORT_OPTIONS.byteOffset(MemoryLayout.PathElement.groupElement("flags"))).isEqualTo(36);
    }

    @Test
    void eventsAreReadInPlace() {
        try (GmEvents events = new GmEvents(2)) {
            long base = GmEvents.LAYOUT.byteSize();
            events.segment().set(ValueLayout.JAVA_LONG, base + GmEvents.CONTEXT, 42L);
            events.segment().set(ValueLayout.JAVA_SHORT, base + GmEvents.SENDER_NODE, (short) 65535);
            events.segment().set(ValueLayout.JAVA_BYTE, base + GmEvents.SIZE, (byte) 200);
            assertThat(events.context(1)).isEqualTo(42);
            assertThat(events.senderNode(1)).isEqualTo(65535);
            assertThat(events.size(1)).isEqualTo(200);
            assertThat(events.context(0)).isZero();
        }
    }
}
