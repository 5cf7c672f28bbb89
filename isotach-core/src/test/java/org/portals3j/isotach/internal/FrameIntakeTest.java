package org.portals3j.isotach.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.noniso.NonisoLayer;
import org.portals3j.isotach.internal.siu.NanoClock;
import org.portals3j.isotach.internal.siu.SwitchNode;
import org.portals3j.isotach.internal.wire.ClockSection;
import org.portals3j.isotach.internal.wire.Frame;
import org.portals3j.transport.Deposit;

/** The transport side alone: hostile frames are counted and dropped, and a refused packet's clock items still count. */
class FrameIntakeTest {
    private final IsotachConfig config = IsotachConfig.defaults();
    private final SilentTransport transport = new SilentTransport(2); // host 0; host 1 runs the token manager
    private final SwitchNode node = new SwitchNode(transport, config, 2, 1, NanoClock.SYSTEM);
    private final IsotachHost host = new IsotachHost(0, 2, config, node, new IsotachHost.LinkListener() {
        @Override
        public void onSync(int peer, int phase, int nonisoSlots, int isoCredits) {
        }

        @Override
        public void onPeerDown(int peer) {
        }
    });
    private final NonisoLayer noniso = new NonisoLayer(0, 2, config, transport, (s, v, l, p) -> { });
    private final FrameIntake intake = new FrameIntake(transport, node, noniso, host);

    private long dropped() {
        Map<String, Long> m = new LinkedHashMap<>();
        intake.counters(m);
        return m.getOrDefault("engine.drop.frame", -1L);
    }

    private long nodeCounter(String name) {
        return node.counters().getOrDefault(name, Long.MIN_VALUE);
    }

    private void deliver(MemorySegment header, int length, long payloadLength) {
        Deposit deposit = new Deposit();
        intake.onHeader(1, header, length, payloadLength, deposit);
        intake.onDeposited(1, deposit);
    }

    @Test
    void anEmptyHeaderAnUnknownKindAndAPayloadOnAControlFrameAreDroppedAndCounted() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        deliver(f, 0, 0);
        assertThat(dropped()).isEqualTo(1);
        f.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x7F);
        deliver(f, Frame.MAX_LENGTH, 0);
        assertThat(dropped()).isEqualTo(2);
        Frame.start(f, Frame.CLOCK);
        ClockSection.clear(f, Frame.O_CLOCK);
        deliver(f, Frame.CLOCK_LENGTH, 8);
        assertThat(dropped()).as("a CLOCK frame never has a payload").isEqualTo(3);
        assertThat(nodeCounter("siu.drop.malformed")).as("nothing reached the switch node").isZero();
    }

    @Test
    void anIsoPacketOutOfTurnIsRefusedButTheTokenBehindItIsApplied() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.ISO);
        Frame.u8(f, Frame.O_BYTE2, IsotachHost.ISO_MBM);
        Frame.i32(f, Frame.O_ISO_SLOT, 5); // slot 0 is next
        Frame.i32(f, Frame.O_ISO_LENGTH, 0);
        ClockSection.addToken(f, Frame.O_ISO_CLOCK, 0, 0, 0);
        deliver(f, Frame.ISO_LENGTH, 0);
        assertThat(dropped()).isEqualTo(1);
        assertThat(nodeCounter("siu.isoReceived")).isZero();
        assertThat(nodeCounter("siu.token")).as("the token manager's token still counts").isZero();
    }

    @Test
    void anIsoPacketInTurnReachesTheSwitchNodeOnceItsPayloadIsInPlace() {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.ISO);
        Frame.u8(f, Frame.O_BYTE2, IsotachHost.ISO_MBM);
        Frame.i64(f, Frame.O_ISO_TIMESTAMP, 1);
        Frame.i32(f, Frame.O_ISO_SLOT, 0);
        Frame.i32(f, Frame.O_ISO_LENGTH, 4);
        ClockSection.addToken(f, Frame.O_ISO_CLOCK, 0, 0, 0);
        Deposit deposit = new Deposit();
        intake.onHeader(1, f, Frame.ISO_LENGTH, 4, deposit);
        assertThat(deposit.accepted()).as("the payload goes to its receive slot").isTrue();
        assertThat(nodeCounter("siu.isoReceived")).as("not before the deposit").isZero();
        intake.onDeposited(1, deposit);
        assertThat(dropped()).isZero();
        assertThat(nodeCounter("siu.isoReceived")).isEqualTo(1);
    }
}
