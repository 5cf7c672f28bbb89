package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The switch interface unit on its own (our design; the report's SIU is hardware): tokens in sequence, stamps of
 * current time plus the largest distance and never decreasing, pulses closed once every live sender's mark shows
 * them complete, and a packet for a closed pulse fatal. Host 0 of two, the token manager on host 1, logical
 * distance 3 to host 1.
 */
class SwitchInterfaceUnitTest {
    private static final int FAR = 3;

    private final Object lock = new Object();
    private final OrderRecordingTransport wire = new OrderRecordingTransport(0, 2);
    private final Outbox outbox = new Outbox(wire, lock, 64);
    private final HostLink link = new HostLink(64);
    private final boolean[] alive = {true, true};
    private final SwitchInterfaceUnit siu = new SwitchInterfaceUnit(0, 2, 1, 2, new int[] {1, FAR},
            new int[] {1, FAR}, alive, link, outbox, new ClockItemWriter(outbox), null, () -> 0L, 16, 0, 64);

    /** The records the host would take, oldest first. */
    private List<HostLink.Record> taken() {
        List<HostLink.Record> records = new ArrayList<>();
        HostLink.Record r = new HostLink.Record();
        while (link.take(r)) {
            records.add(r);
            r = new HostLink.Record();
        }
        return records;
    }

    private void tokensUpTo(long pulse) {
        for (long p = siu.tokenSeen() + 1; p <= pulse; p++) {
            assertThat(siu.token(p, 0, 0)).as("token %d", p).isTrue();
        }
    }

    /** An isochron of one packet to {@code dest}, whole (SOI and EOI). */
    private void isochronTo(int dest) {
        synchronized (lock) {
            siu.ship(dest, 0, Frame.PREFIX_START_OF_ISOCHRON | Frame.PREFIX_END_OF_ISOCHRON, 1, 0, 0, 0, 0, false, 0,
                    MemorySegment.NULL, 0, -1);
        }
    }

    private static MemorySegment isoPacket(long timestamp) {
        MemorySegment h = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(h, Frame.ISO);
        Frame.i64(h, Frame.O_ISO_TIMESTAMP, timestamp);
        return h;
    }

    @Test
    void aTokenIsAppliedOnlyWhenItIsTheNextOne() {
        assertThat(siu.token(1, 0, 0)).as("before token 0").isFalse();
        assertThat(siu.token(0, 0, 0)).isTrue();
        assertThat(siu.token(0, 0, 0)).as("again").isFalse();
        assertThat(siu.token(2, 0, 0)).as("one skipped").isFalse();
        assertThat(siu.tokenSeen()).isZero();
        assertThat(siu.token(1, 0, 0)).isTrue();
        assertThat(siu.tokenSeen()).isEqualTo(1);
    }

    @Test
    void anIsochronIsStampedWithTheTimeSeenPlusItsLargestDistanceAndStampsNeverDecrease() {
        tokensUpTo(4);
        taken();
        isochronTo(1);
        assertThat(siu.lastStamp()).as("token 4 + distance 3").isEqualTo(4 + FAR);
        assertThat(siu.stamped()).isEqualTo(1);
        assertThat(siu.isoSent()).isEqualTo(1);
        isochronTo(0); // distance 1 to itself: the stamp would be earlier, so it stays
        assertThat(siu.lastStamp()).isEqualTo(4 + FAR);
        assertThat(taken()).filteredOn(r -> r.type == HostLink.ISOCHRON_MARKER).extracting(r -> r.pulse)
                .containsExactly(4L + FAR, 4L + FAR);
        outbox.flush();
        assertThat(wire.sent()).filteredOn(s -> s.kind() == Frame.ISO).hasSize(2)
                .allSatisfy(s -> assertThat(s.i64(Frame.O_ISO_TIMESTAMP)).isEqualTo(4 + FAR));
    }

    @Test
    void aPulseClosesOnlyOnceEveryLiveSendersMarkShowsItComplete() {
        tokensUpTo(5);
        assertThat(siu.closedPulse()).as("pulse p needs host 1's mark of p - 3, and host 1 has marked nothing")
                .isEqualTo(2);
        siu.mark(1, 0);
        assertThat(siu.closedPulse()).isEqualTo(3);
        alive[1] = false; // host 1 went down: nobody waits for its marks
        siu.closePulses();
        assertThat(siu.closedPulse()).as("every pulse the token reached").isEqualTo(5);
        assertThat(taken()).filteredOn(r -> r.type == HostLink.END_OF_PULSE).isNotEmpty()
                .allSatisfy(r -> assertThat(r.pulse).isBetween(0L, 5L));
        assertThat(siu.endOfPulseMarkers()).isEqualTo(6);
    }

    @Test
    void aPacketForAClosedPulseIsFatalAndOneWithinTheHorizonIsAnEntryForTheHost() {
        tokensUpTo(1);
        taken();
        siu.packet(1, isoPacket(0));
        assertThat(siu.droppedLate()).isEqualTo(1);
        assertThat(taken()).singleElement().satisfies(r -> assertThat(r.type).isEqualTo(HostLink.FATAL));
        siu.packet(1, isoPacket(1 + FAR));
        assertThat(siu.isoReceived()).isEqualTo(1);
        assertThat(taken()).singleElement().satisfies(r -> {
            assertThat(r.type).isEqualTo(HostLink.ISO);
            assertThat(r.pulse).isEqualTo(1 + FAR);
            assertThat(r.peer).isEqualTo(1);
        });
        siu.packet(1, isoPacket(1 + 257));
        assertThat(siu.droppedLate()).as("beyond the horizon of 256 pulses").isEqualTo(2);
    }

    @Test
    void onlyTheTokenManagersRankBuildsATokenManager() {
        IsotachConfig config = IsotachConfig.defaults();
        for (int rank = 0; rank < 3; rank++) {
            SwitchNode inRank = new SwitchNode(new OrderRecordingTransport(rank, 3), config, 3, 0, () -> 0L);
            assertThat(inRank.isTokenManager()).as("rank %d, token manager on host 0", rank).isEqualTo(rank == 0);
            assertThat(inRank.counters().keySet().stream().anyMatch(k -> k.startsWith("tm.")))
                    .as("rank %d has token-manager counters", rank).isEqualTo(rank == 0);
        }
        for (int rank = 0; rank < 4; rank++) {
            SwitchNode ownProcess = new SwitchNode(new OrderRecordingTransport(rank, 4), config, 3, 3, () -> 0L);
            assertThat(ownProcess.isTokenManager()).as("rank %d, token manager on rank 3", rank)
                    .isEqualTo(rank == 3);
        }
    }
}
