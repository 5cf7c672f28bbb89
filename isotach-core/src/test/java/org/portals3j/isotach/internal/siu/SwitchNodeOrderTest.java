package org.portals3j.isotach.internal.siu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.portals3j.isotach.internal.siu.ClockFrames.mark;
import static org.portals3j.isotach.internal.siu.ClockFrames.token;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachConfig;
import org.portals3j.isotach.IsotachFatalError;
import org.portals3j.isotach.internal.gc.BarrierTable;
import org.portals3j.isotach.internal.gc.SignalTable;
import org.portals3j.isotach.internal.host.IsotachHost;
import org.portals3j.isotach.internal.siu.OrderRecordingTransport.Sent;
import org.portals3j.isotach.internal.wire.Frame;

/**
 * The emulated switch interface unit (SIU) against the catalogue's SIU assertions, frame by frame: what it
 * stamps, when it sends, what it tells its host. Conformance ids in the method annotations' comments; these are
 * the parts of I-003..I-013, I-112, I-138, I-139, I-141 that only the wire and the host link show.
 */
// The fixtures are set up per test and the records come from the switch node: the assertions check them for null.
@SuppressWarnings("nullness")
class SwitchNodeOrderTest {
    private static final int ISO_MBM = 0x10;
    private static final int SOI = Frame.PREFIX_START_OF_ISOCHRON;

    /**
     * Every isochron marks ahead and asks for time (no stamp batching): what a test stamps does not depend on timing.
     */
    private static SwitchNode node(OrderRecordingTransport t, IsotachConfig config, int hosts, int tm) {
        return new SwitchNode(t, config.toBuilder().stampBatchNanos(0).build(), hosts, tm, System::nanoTime);
    }

    private static MemorySegment iso(long ts, int slot, int length) {
        MemorySegment f = MemorySegment.ofArray(new byte[Frame.MAX_LENGTH]);
        Frame.start(f, Frame.ISO);
        Frame.u8(f, Frame.O_BYTE2, ISO_MBM);
        Frame.u8(f, Frame.O_BYTE3, SOI | Frame.PREFIX_END_OF_ISOCHRON);
        Frame.i64(f, Frame.O_ISO_TIMESTAMP, ts);
        Frame.i32(f, Frame.O_ISO_SLOT, slot);
        Frame.i32(f, Frame.O_ISO_LENGTH, length);
        return f;
    }

    private static void ship(SwitchNode n, int dest, int prefix, int isoId) {
        n.ship(dest, ISO_MBM, prefix, isoId, 0, 0, 0, 0, false, 0, MemorySegment.NULL, 0, -1);
    }

    private static List<HostLink.Record> drain(SwitchNode n) {
        List<HostLink.Record> out = new ArrayList<>();
        while (true) {
            HostLink.Record r = new HostLink.Record();
            if (!n.take(r)) {
                return out;
            }
            out.add(r);
        }
    }

    // ---- stamping -------------------------------------------------------------------------------------------------

    /** I-003, I-138, I-024: an isochron leaves only at its EOI, all of it with one TS; the marker carries TS and id. */
    @Test
    void anIsochronLeavesWholeAtItsEoiWithOneTimestampAndItsMarkerCarriesTimestampAndId() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        SwitchNode n = node(t, IsotachConfig.defaults(), 3, 0);
        n.onClock(0, token(0, 0, 0));
        n.onClock(0, token(1, 0, 0));
        ship(n, 0, SOI | Frame.PREFIX_SEQUENTIAL_CONSISTENCY_SET, 7);
        ship(n, 2, 0, 7);
        assertThat(t.sent(Frame.ISO)).as("iso frames before the EOI").isEmpty();
        ship(n, 0, Frame.PREFIX_END_OF_ISOCHRON, 7);
        List<Sent> isos = t.sent(Frame.ISO);
        assertThat(isos).extracting(Sent::peer).containsExactly(0, 2, 0);
        assertThat(isos).extracting(s -> s.i64(Frame.O_ISO_TIMESTAMP)).containsOnly(2L); // token 1 + distance 1
        assertThat(isos).extracting(s -> s.u8(Frame.O_BYTE4)).containsOnly(7);
        assertThat(isos).extracting(s -> s.u8(Frame.O_BYTE3))
                .containsExactly(SOI | Frame.PREFIX_SEQUENTIAL_CONSISTENCY_SET, 0, Frame.PREFIX_END_OF_ISOCHRON);
        List<HostLink.Record> markers = drain(n).stream().filter(r -> r.type == HostLink.ISOCHRON_MARKER).toList();
        assertThat(markers).hasSize(1);
        assertThat(markers.get(0).pulse).isEqualTo(2);
        assertThat(markers.get(0).a).as("marker's isochron id").isEqualTo(7);
    }

    /**
     * I-004, I-005, I-008: TS = T_cur + largest distance to the isochron's destinations, never below the last TS;
     * T_cur is the last token, or the pulse after it once the SIU has marked ahead (SwitchNode, "Marking ahead").
     */
    @Test
    void theTimestampIsTheTokenPlusTheFarthestDistanceAndNeverDecreases() {
        int[][] d = {{0, 1, 1}, {2, 0, 5}, {1, 1, 0}};
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        SwitchNode n = node(t, IsotachConfig.builder().distances(d).build(), 3, 0);
        n.onClock(0, token(0, 0, 0));
        ship(n, 0, SOI | Frame.PREFIX_END_OF_ISOCHRON, 0); // token 0 + distance 2; marks 0 ahead
        ship(n, 2, SOI | Frame.PREFIX_END_OF_ISOCHRON, 1); // T_cur 1 (marked ahead) + distance 5
        ship(n, 0, SOI | Frame.PREFIX_END_OF_ISOCHRON, 2); // distance 2, but not before the previous TS
        for (int p = 1; p <= 9; p++) {
            n.onClock(0, token(p, 0, 0));
        }
        ship(n, 0, SOI, 3);
        ship(n, 2, Frame.PREFIX_END_OF_ISOCHRON, 3); // both: distance 5
        ship(n, 0, SOI | Frame.PREFIX_END_OF_ISOCHRON, 4);
        assertThat(t.sent(Frame.ISO)).extracting(s -> s.i64(Frame.O_ISO_TIMESTAMP))
                .containsExactly(2L, 6L, 6L, 14L, 14L, 14L);
        for (Sent s : t.sent(Frame.ISO)) {
            assertThat(s.i64(Frame.O_ISO_TIMESTAMP) - 9).isLessThan(256);
        }
    }

    // ---- pulses ---------------------------------------------------------------------------------------------------

    /**
     * I-006, I-007, I-142, I-013: every pulse closes once, in order, empty ones too; count and sort vector are right.
     */
    @Test
    void everyPulseIsClosedOnceInOrderWithTheCountAndSortVectorOfItsEntries() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, IsotachConfig.defaults(), 2, 0);
        n.onClock(0, token(0, 0, 0));
        n.onClock(0, token(1, 0, 0));
        n.onClock(0, token(2, 0, 0));
        n.onIso(0, iso(3, 0, 0));          // arrival 0: sender 0
        ship(n, 0, SOI | Frame.PREFIX_END_OF_ISOCHRON, 9); // stamped 2 + 1 = 3: the marker, arrival 1, sender 1
        n.onIso(0, iso(3, 1, 0));          // arrival 2: sender 0
        n.onClock(0, token(3, 0, 0));
        n.onClock(0, token(4, 0, 0));
        n.onClock(0, token(5, 0, 0));
        for (int p = 0; p <= 4; p++) {
            n.onClock(0, mark(p));
        }
        List<Long> closed = new ArrayList<>();
        HostLink.Record three = null;
        for (HostLink.Record r : drain(n)) {
            if (r.type != HostLink.END_OF_PULSE) {
                continue;
            }
            for (long p = r.fromPulse; p <= r.pulse; p++) {
                closed.add(p);
            }
            if (r.pulse == 3) {
                three = r;
            } else {
                assertThat(r.a).as("count of empty pulses %d..%d", r.fromPulse, r.pulse).isZero();
            }
        }
        assertThat(closed).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(three).isNotNull();
        assertThat(three.fromPulse).isEqualTo(3);
        assertThat(three.a).as("count of pulse 3: two iso packets and one isochron marker").isEqualTo(3);
        assertThat(new byte[] {three.sortVector[0], three.sortVector[1], three.sortVector[2]})
                .as("sender 0's packets in arrival order, then the marker (sender 1)").containsExactly(0, 2, 1);
        assertThat(n.closedPulse()).isEqualTo(5);
    }

    /** I-009: a packet stamped for a pulse already closed is a fatal error, never bucketed. */
    @Test
    void anIsoPacketForAClosedPulseIsFatal() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, IsotachConfig.defaults(), 2, 0);
        for (int p = 0; p <= 3; p++) {
            n.onClock(0, token(p, 0, 0));
            n.onClock(0, mark(p));
        }
        assertThat(n.closedPulse()).isEqualTo(3);
        drain(n);
        n.onIso(0, iso(2, 0, 0));
        List<HostLink.Record> records = drain(n);
        assertThat(records).extracting(r -> r.type).containsExactly(HostLink.FATAL);
        assertThat(n.counters().get("siu.drop.late")).isEqualTo(1);
    }

    /** I-112: more entries for one pulse than a bucket holds is reported as fatal, not dropped. */
    @Test
    void aBucketOverflowIsReportedToTheHost() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, IsotachConfig.builder().bucketSize(2).build(), 2, 0);
        n.onClock(0, token(0, 0, 0));
        n.onIso(0, iso(2, 0, 0));
        n.onIso(0, iso(2, 1, 0));
        n.onIso(0, iso(2, 2, 0));
        List<HostLink.Record> fatal = drain(n).stream().filter(r -> r.type == HostLink.FATAL).toList();
        assertThat(fatal).hasSize(1);
        assertThat(fatal.get(0).message).contains("bucket overflow");
    }

    /**
     * By default a bucket holds every entry the credits let arrive in one pulse ((hosts - 1) x (credits - 1) +
     * hit buffer, here 1 x 127 + 512 = 639): it grows past the report's 256 instead of aborting, and only the entry
     * after the bound is fatal (I-112).
     */
    @Test
    void aDefaultBucketGrowsToWhatTheCreditsAllowAndNoFurther() {
        IsotachConfig defaults = IsotachConfig.defaults();
        assertThat(defaults.bucketCapacity(2)).isEqualTo(639);
        assertThat(defaults.bucketCapacity(8)).isEqualTo(7 * 127 + 512);
        assertThat(IsotachConfig.builder().bucketSize(40).build().bucketCapacity(8)).isEqualTo(40);
        OrderRecordingTransport t = new OrderRecordingTransport(1, 2);
        SwitchNode n = node(t, defaults, 2, 0);
        n.onClock(0, token(0, 0, 0));
        for (int k = 0; k < 639; k++) {
            n.onIso(0, iso(2, k % 128, 0));
        }
        assertThat(drain(n)).noneMatch(r -> r.type == HostLink.FATAL);
        n.onIso(0, iso(2, 0, 0));
        List<HostLink.Record> fatal = drain(n).stream().filter(r -> r.type == HostLink.FATAL).toList();
        assertThat(fatal).hasSize(1);
        assertThat(fatal.get(0).message).contains("bucket overflow: more than 639 entries");
    }

    // ---- bs-markers -----------------------------------------------------------------------------------------------

    /** I-141: no bs-marker between an SOI and its EOI; one after the EOI leaves behind the isochron's packets. */
    @Test
    void aBsMarkerIsRefusedInsideAnOpenIsochronAndFollowsItsPacketsAfterwards() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        SwitchNode n = node(t, IsotachConfig.defaults(), 3, 0);
        n.onClock(0, token(0, 0, 0));
        ship(n, 2, SOI, 0);
        assertThatThrownBy(() -> n.shipBarrierSignalMarker(1 << 3, 0, false)).isInstanceOf(IllegalStateException.class);
        ship(n, 2, Frame.PREFIX_END_OF_ISOCHRON, 0);
        n.shipBarrierSignalMarker(1 << 3, 0, false);
        List<Sent> order = t.sent().stream()
                .filter(s -> s.kind() == Frame.ISO || s.kind() == Frame.BARRIER_SIGNAL_MARKER).toList();
        assertThat(order).extracting(Sent::kind).containsExactly(Frame.ISO, Frame.ISO, Frame.BARRIER_SIGNAL_MARKER);
    }

    /** I-139: a bs-marker carries the bits [reset | signals 4..0 | barrier 1 | barrier 0] and the barrier count. */
    @Test
    void aBsMarkerCarriesTheSignalAndBarrierBitsAndTheBarrierCount() {
        OrderRecordingTransport t = new OrderRecordingTransport(1, 3);
        SwitchNode n = node(t, IsotachConfig.defaults(), 3, 0);
        int bits = SignalTable.wireBit(1) | SignalTable.wireBit(4) | BarrierTable.wireBit(1);
        assertThat(bits).as("signals 1 and 4 at bits 3 and 6, barrier 1 at bit 1").isEqualTo(0b0100_1010);
        assertThat(SignalTable.wireBit(5)).as("reset bit").isEqualTo(0x80);
        assertThat(BarrierTable.wireBit(0)).isEqualTo(0x01);
        n.shipBarrierSignalMarker(bits, 2, false);
        // an automatic one
        n.shipBarrierSignalMarker(BarrierTable.wireBit(1), 37, true);
        List<Sent> bs = t.sent(Frame.BARRIER_SIGNAL_MARKER);
        assertThat(bs).hasSize(2);
        assertThat(bs.get(0).peer()).as("to the token manager").isZero();
        assertThat(bs.get(0).header()).hasSize(Frame.BARRIER_SIGNAL_MARKER_LENGTH);
        assertThat(bs.get(0).u8(Frame.O_BYTE2)).isEqualTo(bits);
        assertThat(bs.get(0).u8(Frame.O_BYTE3)).as("barrier count").isEqualTo(2);
        assertThat(bs.get(0).i32(Frame.O_INT4) & Frame.BARRIER_SIGNAL_AUTOMATIC).as("an application's marker").isZero();
        assertThat(bs.get(1).u8(Frame.O_BYTE2)).isEqualTo(0x02);
        assertThat(bs.get(1).u8(Frame.O_BYTE3)).as("MAX barrier count").isEqualTo(37);
        assertThat(bs.get(1).i32(Frame.O_INT4) & Frame.BARRIER_SIGNAL_AUTOMATIC).as("an automatic participation")
                .isNotZero();
    }

    // ---- the host's ordering module against the link (records published as the SIU would) ------------------------

    private static HostLink link(SwitchNode n) throws ReflectiveOperationException {
        Field f = SwitchNode.class.getDeclaredField("link");
        f.setAccessible(true);
        return (HostLink) f.get(n);
    }

    private static void publishIso(HostLink link, long pulse, int sender, int slot, int length) {
        HostLink.Record r = link.claim();
        r.type = HostLink.ISO;
        r.pulse = pulse;
        r.peer = sender;
        r.a = ISO_MBM;
        r.b = slot;
        r.c = length;
        r.creditPresent = false;
        link.publish();
    }

    private static void publishEop(HostLink link, long pulse, int count, byte... sortVector) {
        HostLink.Record r = link.claim();
        r.type = HostLink.END_OF_PULSE;
        r.pulse = pulse;
        r.fromPulse = pulse;
        r.a = count;
        r.b = 0;
        System.arraycopy(sortVector, 0, r.sortVector, 0, sortVector.length);
        link.publish();
    }

    private static IsotachHost host(SwitchNode n, int me, int hosts, IsotachConfig config) {
        return new IsotachHost(me, hosts, config, n,
                new IsotachHost.LinkListener() {
                    @Override
                    public void onSync(int peer, int phase, int nonisoSlots, int isoCredits) {
                    }

                    @Override
                    public void onPeerDown(int peer) {
                    }
                });
    }

    /** Puts one byte (the arrival index) in the receive slot a frame from {@code sender} would fill next. */
    private static int fill(IsotachHost h, int sender, int slot, int arrival) {
        MemorySegment header = iso(0, slot, 1);
        MemorySegment into = h.receiveSlot(sender, header, 1);
        assertThat(into).as("receive slot %d of sender %d", slot, sender).isNotNull();
        into.set(ValueLayout.JAVA_BYTE, 0, (byte) arrival);
        return arrival;
    }

    /** I-012: a pulse of more than 32 entries (no sort vector) is delivered by sender id, stable in arrival order. */
    @Test
    void aPulseBeyondTheSortVectorIsDeliveredBySenderThenArrival() throws ReflectiveOperationException {
        IsotachConfig config = IsotachConfig.defaults();
        SwitchNode n = node(new OrderRecordingTransport(0, 3), config, 3, 1);
        var h = host(n, 0, 3, config);
        HostLink link = link(n);
        int[] slot = new int[3];
        List<String> expected1 = new ArrayList<>();
        List<String> expected2 = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            int sender = i % 3 == 0 ? 1 : 2;
            int s = slot[sender]++;
            fill(h, sender, s, i);
            publishIso(link, 0, sender, s, 1);
            (sender == 1 ? expected1 : expected2).add(sender + ":" + i);
        }
        publishEop(link, 0, 40);
        h.receiving();
        List<String> got = new ArrayList<>();
        IsoMessage m = new IsoMessage();
        while (h.isoReceive(m) == 0) {
            got.add(m.sender() + ":" + m.data().get(ValueLayout.JAVA_BYTE, 0));
        }
        List<String> expected = new ArrayList<>(expected1);
        expected.addAll(expected2);
        assertThat(got).isEqualTo(expected);
    }

    /** I-013: with 32 entries or fewer the host processes the bucket exactly in the sort vector's order. */
    @Test
    void aPulseWithASortVectorIsDeliveredInTheVectorsOrder() throws ReflectiveOperationException {
        IsotachConfig config = IsotachConfig.defaults();
        SwitchNode n = node(new OrderRecordingTransport(0, 3), config, 3, 1);
        var h = host(n, 0, 3, config);
        HostLink link = link(n);
        fill(h, 2, 0, 0);
        publishIso(link, 0, 2, 0, 1);
        fill(h, 1, 0, 1);
        publishIso(link, 0, 1, 0, 1);
        fill(h, 2, 1, 2);
        publishIso(link, 0, 2, 1, 1);
        publishEop(link, 0, 3, (byte) 1, (byte) 0, (byte) 2);
        h.receiving();
        List<Integer> got = new ArrayList<>();
        IsoMessage m = new IsoMessage();
        while (h.isoReceive(m) == 0) {
            got.add((int) m.data().get(ValueLayout.JAVA_BYTE, 0));
        }
        assertThat(got).containsExactly(1, 0, 2);
    }

    /** I-006: an EOP whose count differs from the entries the host bucketed for that pulse is fatal. */
    @Test
    void anEopCountThatDiffersFromTheBucketIsFatal() throws ReflectiveOperationException {
        IsotachConfig config = IsotachConfig.defaults();
        SwitchNode n = node(new OrderRecordingTransport(0, 3), config, 3, 1);
        var h = host(n, 0, 3, config);
        HostLink link = link(n);
        publishIso(link, 0, 1, 0, 0);
        publishEop(link, 0, 2, (byte) 0, (byte) 1);
        assertThatThrownBy(h::receiving).isInstanceOf(IsotachFatalError.class).hasMessageContaining("count");
    }

    /** I-021: an isochron marker whose id is not the oldest outstanding net-isochron's is fatal. */
    @Test
    void anIsochronMarkerForTheWrongIsochronIsFatal() throws ReflectiveOperationException {
        IsotachConfig config = IsotachConfig.defaults();
        SwitchNode n = node(new OrderRecordingTransport(0, 3), config, 3, 1);
        var h = host(n, 0, 3, config);
        HostLink link = link(n);
        byte[] one = {42};
        assertThat(h.isoSend(1, MemorySegment.ofArray(one), 1, true)).isZero(); // net-isochron id 0 outstanding
        assertThat(h.isoSend(1, MemorySegment.ofArray(one), 1, true)).isZero(); // id 1
        HostLink.Record r = link.claim();
        r.type = HostLink.ISOCHRON_MARKER;
        r.pulse = 0;
        r.a = 0;
        link.publish();
        publishEop(link, 0, 1, (byte) 0);
        h.receiving(); // the right marker: accepted
        r = link.claim();
        r.type = HostLink.ISOCHRON_MARKER;
        r.pulse = 1;
        r.a = 5;
        link.publish();
        publishEop(link, 1, 1, (byte) 0);
        assertThatThrownBy(h::receiving).isInstanceOf(IsotachFatalError.class).hasMessageContaining("isochron marker");
    }

    /** I-050: a sender's ordered slots at a receiver are used cyclically; a frame out of turn is refused. */
    @Test
    void receiveSlotsAreUsedCyclicallyAndAFrameOutOfTurnIsRefused() {
        IsotachConfig config = IsotachConfig.builder().isoCreditsPerPeer(4).maxPayload(64).build();
        SwitchNode n = node(new OrderRecordingTransport(0, 3), config, 3, 1);
        var h = host(n, 0, 3, config);
        List<Long> addresses = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            MemorySegment s = h.receiveSlot(2, iso(0, k % 4, 8), 8);
            assertThat(s).as("slot %d", k % 4).isNotNull();
            addresses.add(s.address());
        }
        for (int k = 4; k < 10; k++) {
            assertThat(addresses.get(k)).isEqualTo(addresses.get(k - 4));
        }
        assertThat(addresses.subList(0, 4)).doesNotHaveDuplicates();
        assertThat(h.receiveSlot(2, iso(0, 3, 8), 8)).as("slot 3 when slot 2 is next").isNull();
        assertThat(h.receiveSlot(2, iso(0, 2, 8), 16)).as("payload longer than announced").isNull();
        assertThat(h.receiveSlot(0, iso(0, 0, 8), 8)).as("a frame from itself").isNull();
        assertThat(h.receiveSlot(1, iso(0, 0, 8), 8)).as("another sender's own sequence starts at 0").isNotNull();
    }
}
