package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.siu.OrderRecordingTransport.Sent;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The host's Isotach send path seen on the wire (host 0 of 2, running the token manager, over a transport that
 * records frames): the Isotach prefix of each packet, isochron ids, lazy EOI, self-messages. The report's prefix
 * byte 0 (Isotach report §6.2.5, pp. 41-45) is the ISO frame's prefix byte: SOI = SEQ_CON | LOG_TS (0x06),
 * SEQ_CON_SET 0x08, EOI 0x20; the isochron id is its own byte.
 */
// The fixtures are set up per test and the records come from the switch node: the assertions check them for null.
@SuppressWarnings("nullness")
class IsotachHostWireTest {
    private static final int SOI = Frame.PREFIX_START_OF_ISOCHRON;
    private static final int SCS = Frame.PREFIX_SEQUENTIAL_CONSISTENCY_SET;
    private static final int EOI = Frame.PREFIX_END_OF_ISOCHRON;

    private final OrderRecordingTransport wire = new OrderRecordingTransport(0, 2);
    private IsotachHost host;

    private void start(IsotachConfig config) {
        SwitchNode siu = new SwitchNode(wire, config, 2, 0, System::nanoTime);
        host = new IsotachHost(0, 2, config, siu, new IsotachHost.LinkListener() {
            @Override
            public void onSync(int peer, int phase, int nonisoSlots, int isoCredits) {
            }

            @Override
            public void onPeerDown(int peer) {
            }
        });
        siu.startClock();
    }

    private void send(int target, boolean last) {
        byte[] data = {1, 2, 3, 4};
        assertThat(host.isoSend(target, MemorySegment.ofArray(data), data.length, last)).isZero();
        host.flow();
    }

    private List<Sent> isoFrames() {
        return wire.sent(Frame.ISO);
    }

    private List<Integer> prefixes() {
        return isoFrames().stream().map(s -> s.u8(Frame.O_BYTE3)).toList();
    }

    /**
     * I-029, I-030: a one-packet isochron carries SOI and EOI; SEQ_CON_SET alternates 1, 0, 1, ... per net-isochron.
     */
    @Test
    void oneNetPacketIsochronsCarrySoiAndEoiAndAlternateSeqConSet() {
        start(IsotachConfig.defaults());
        send(1, true);
        send(1, true);
        send(0, true); // a self-isochron: no packet, no flip
        send(1, true);
        send(1, true);
        assertThat(prefixes()).containsExactly(SOI | SCS | EOI, SOI | EOI, SOI | SCS | EOI, SOI | EOI);
    }

    /** I-031, I-025: only the first packet has the SOI bits, only the last the EOI bit, the middle ones 0. */
    @Test
    void onlyTheFirstPacketCarriesSoiAndOnlyTheLastEoi() {
        start(IsotachConfig.defaults());
        send(1, false);
        send(1, false);
        send(0, false);
        send(1, false);
        send(1, true);
        assertThat(prefixes()).containsExactly(SOI | SCS, 0, 0, EOI);
        send(1, false);
        send(1, true);
        assertThat(prefixes().subList(4, 6)).containsExactly(SOI, EOI);
    }

    /** I-023, I-024, I-026, I-027: a net packet leaves when its EOI status is decided, and not before. */
    @Test
    void aNetPacketLeavesOnlyOnceItsEoiStatusIsDecided() {
        start(IsotachConfig.defaults());
        send(1, false);
        send(0, false);
        send(0, false);
        assertThat(isoFrames()).as("undecided, with self-sends after it").isEmpty();
        assertThat(host.isoEnd()).isZero();
        host.flow();
        assertThat(prefixes()).containsExactly(SOI | SCS | EOI);
        send(1, false);
        assertThat(isoFrames()).hasSize(1);
        send(0, true); // a self-send that ends the isochron decides the net packet as EOI
        assertThat(prefixes()).containsExactly(SOI | SCS | EOI, SOI | EOI);
        send(1, true);
        assertThat(isoFrames()).as("last_in_isochron: sent in the same call").hasSize(3);
    }

    /** I-020, I-019: isochron ids count net-isochrons only, 0..255 and round again. */
    @Test
    void isochronIdsCountNetIsochronsOnlyAndWrapAfter255() {
        start(IsotachConfig.builder().isoCreditsPerPeer(512).maxPayload(16).build());
        for (int k = 0; k < 300; k++) {
            send(1, true);
            if (k % 10 == 0) {
                send(0, true);
            }
        }
        List<Sent> frames = isoFrames();
        assertThat(frames).hasSize(300);
        for (int k = 0; k < 300; k++) {
            assertThat(frames.get(k).u8(Frame.O_BYTE4)).as("isochron id of net-isochron %d", k).isEqualTo(k % 256);
        }
        assertThat(frames).extracting(s -> s.u8(Frame.O_BYTE3) & EOI).as("each a one-packet isochron")
                .containsOnly(EOI);
    }

    /**
     * I-039, I-028: self-messages put nothing on the wire and take no credit; iso_end with nothing pending is a no-op.
     */
    @Test
    void selfMessagesSendNothingAndTakeNoCreditAndAnEmptyIsoEndDoesNothing() {
        start(IsotachConfig.builder().isoCreditsPerPeer(2).build());
        for (int k = 0; k < 100; k++) {
            send(0, k % 3 == 2);
        }
        host.isoEnd();
        host.flow();
        assertThat(isoFrames()).as("frames for self-messages").isEmpty();
        send(1, true); // the one credit towards host 1 is still there
        assertThat(isoFrames()).hasSize(1);
        send(1, true); // and now it is used
        assertThat(isoFrames()).hasSize(1);
        // an iso_end with nothing pending posts nothing: only the 100 self-messages are ever delivered
        assertThat(host.isoEnd()).isZero();
        assertThat(host.isoEnd()).isZero();
        IsoMessage m = new IsoMessage();
        int selfDelivered = 0;
        host.receiving();
        while (host.isoReceive(m) == 0) {
            assertThat(m.sender()).isZero();
            selfDelivered++;
            host.receiving();
        }
        assertThat(selfDelivered).isEqualTo(100);
    }
}
