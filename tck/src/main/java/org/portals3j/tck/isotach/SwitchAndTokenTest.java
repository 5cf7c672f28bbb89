package org.portals3j.tck.isotach;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.portals3j.isotach.BarrierMode;
import org.portals3j.isotach.Interface;
import org.portals3j.isotach.IsoMessage;
import org.portals3j.isotach.IsotachNet;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.tck.isotach.IsotachJob.Delivered;
import org.portals3j.transport.Transport;

/**
 * The emulated switch interface units and token manager, seen from the hosts (Isotach report §3.7, pp. 23-25; App. B.1,
 * pp. 104-107; our design of what the report leaves to hardware, §1.1.3, pp. 1-2).
 */
class SwitchAndTokenTest {

    @Test
    @SpecAssertion("I-137")
    void malformedFramesAreDroppedAndCountedAndNeverDelivered() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            t.isochron(1, 0, 16, 0);
            t.awaitMessages(1, 0, 0);
            long dropsBefore = t.counter(0, "engine.drop.frame");
            // Frames from rank 1's endpoint to host 0 that no correct layer sends: engine kinds (0x01-0x1F) and the
            // reserved range (0x30-0x3F) with lengths no frame has, an unknown version, an iso frame for a receive
            // slot out of turn, and one whose payload length disagrees with its header.
            Transport raw = job.endpoint(1);
            byte[] h = new byte[64];
            MemorySegment header = MemorySegment.ofArray(h);
            int injected = 0;
            for (int kind = 0x01; kind <= 0x3F; kind++) {
                if (kind >= 0x20 && kind <= 0x2F) {
                    continue; // the noniso module's kinds: not this test's
                }
                for (int length : new int[] {1, 3, 5, 7, 9, 47, 49}) {
                    Arrays.fill(h, (byte) 0x5A);
                    h[0] = (byte) kind;
                    h[1] = 1;
                    raw.send(0, header, length, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
                    injected++;
                }
            }
            for (int kind = 0x01; kind <= 0x08; kind++) {
                Arrays.fill(h, (byte) 0);
                h[0] = (byte) kind;
                h[1] = 99; // no such version
                raw.send(0, header, kind == 0x06 ? 48 : 8, MemorySegment.NULL, 0, 0, Transport.NO_NOTIFY);
                injected++;
            }
            byte[] payload = new byte[16];
            ByteBuffer iso = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
            Arrays.fill(h, (byte) 0);
            iso.put(0, (byte) 0x06).put(1, (byte) 1).put(2, (byte) 0x10).putLong(8, 1_000_000L).putInt(24, 77)
                    .putInt(28, 16);
            raw.send(0, header, 48, MemorySegment.ofArray(payload), 0, 16, Transport.NO_NOTIFY); // slot 77 out of turn
            injected++;
            iso.putInt(24, 0).putInt(28, 8);
            raw.send(0, header, 48, MemorySegment.ofArray(payload), 0, 16, Transport.NO_NOTIFY); // 8 said, 16 sent
            injected++;
            int expected = injected;
            job.awaitCondition("host 0 dropped the injected frames",
                    () -> t.counter(0, "engine.drop.frame") - dropsBefore >= expected);
            assertThat(t.counter(0, "engine.drop.frame") - dropsBefore).isEqualTo(expected);
            // nothing was delivered, and the layer works on
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.all(0)).hasSize(1);
            t.isochron(1, 0, 16, 0, 2);
            t.isochron(2, 0, 16, 0, 1);
            t.awaitMessages(3, 1, 1);
            t.receiveFor(TckTransport.quietPeriod());
            assertThat(t.all(0)).hasSize(3);
            OrderChecks.exactlyOnce("", 0, IsoMbmTestKeys.of("1#0", "1#1", "2#0"), t.all(0));
        }
    }

    @Test
    @SpecAssertion({"I-143", "I-144"})
    void aHostThatDiesWithAnIsochronOpenDoesNotStopTheOthersPulses() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsotachNet dying = job.net(2);
            assertThat(dying.isoSend(0, IsoTraffic.payload(2, 0, 0, 0, 3, 0x80, 16), false))
                    .isEqualTo(IsotachNet.SUCCESS);
            assertThat(dying.isoSend(1, IsoTraffic.payload(2, 1, 0, 1, 3, 0x80, 16), false))
                    .isEqualTo(IsotachNet.SUCCESS);
            // its SOI packet is at its switch interface unit, its EOI will never come: the host dies
            dying.close();
            job.endpoint(2).close();
            long[] start = {job.net(0).logicalTime(), job.net(1).logicalTime()};
            IsoTraffic t = new IsoTraffic(job);
            for (int k = 0; k < 5; k++) {
                t.isochron(0, 0, 16, 1, 0);
                t.isochron(1, 0, 16, 0);
            }
            t.awaitMessages(10, 5, 0);
            job.awaitCondition("logical time moves on at hosts 0 and 1", () -> job.net(0).logicalTime() > start[0] + 20
                    && job.net(1).logicalTime() > start[1] + 20);
            for (Delivered d : t.messages(0)) {
                assertThat(d.sender()).as("nothing of the dead host's open isochron").isNotEqualTo(2);
            }
            for (Delivered d : t.messages(1)) {
                assertThat(d.sender()).isNotEqualTo(2);
            }
        }
    }

    /**
     * The emulated switch interface unit works for its host whether or not the host polls, as the hardware did: a host
     * whose application stops calling into the layer (it computes) still acknowledges every token and marks every
     * pulse, so the others' logical time and deliveries go on. An implementation that leaves that work to the host's
     * own thread must take it back when the thread goes away; on inmem the frames are handed to the polling host's
     * thread, and this is what the transport's report of its pollers gone is for.
     */
    @Test
    @SpecAssertion("I-144")
    void aHostThatStopsPollingDoesNotHoldUpTheOthers() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            IsoTraffic t = new IsoTraffic(job);
            t.isochron(2, 0, 16, 0, 1);
            t.awaitMessages(1, 1, 0); // every host has polled
            // From here on nothing calls into host 2: its application computes.
            IsotachNet[] live = {job.net(0), job.net(1)};
            long[] start = {live[0].logicalTime(), live[1].logicalTime()};
            IsoMessage m = new IsoMessage();
            int[] received = new int[2];
            long deadline = System.nanoTime() + TckTransport.patience().toNanos();
            for (int k = 0; k < 10; k++) {
                int from = k % 2;
                int to = 1 - from;
                byte[] data = IsoTraffic.payload(from, k, k, 0, 1, 0x80, 16);
                while (live[from].isoSend(to, data, true) != IsotachNet.SUCCESS) {
                    assertThat(System.nanoTime()).as("iso_send %d -> %d with host 2 away", from, to)
                            .isLessThan(deadline);
                    pollAll(live, m, received);
                }
                int want = received[to] + 1;
                while (received[to] < want) {
                    assertThat(System.nanoTime()).as("host %d's message %d with host 2 away", from, k)
                            .isLessThan(deadline);
                    pollAll(live, m, received);
                }
            }
            while (live[0].logicalTime() <= start[0] + 20 || live[1].logicalTime() <= start[1] + 20) {
                assertThat(System.nanoTime()).as("logical time moves on at hosts 0 and 1 with host 2 away")
                        .isLessThan(deadline);
                pollAll(live, m, received);
            }
        }
    }

    private static void pollAll(IsotachNet[] nets, IsoMessage m, int[] received) {
        for (int h = 0; h < nets.length; h++) {
            if (nets[h].isoReceive(m) == IsotachNet.SUCCESS && !m.isNotice()) {
                received[h]++;
            }
        }
    }

    @Test
    @SpecAssertion("I-145")
    void aSignalAndABarrierCompletionAppearInOnePulseAtEveryHostAndInNoOther() {
        try (IsotachJob job = IsotachJob.open(3, Interface.ISO_MBM)) {
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoRegisterSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            }
            BarrierSetup.alignChannel1(job, BarrierMode.WEAK);
            IsoTraffic t = new IsoTraffic(job);
            assertThat(job.net(2).isoSendSignal(3)).isEqualTo(IsotachNet.SUCCESS);
            for (int h = 0; h < 3; h++) {
                assertThat(job.net(h).isoBarrier(1, BarrierMode.WEAK)).isEqualTo(IsotachNet.SUCCESS);
            }
            job.awaitCondition("a signal and a barrier notice at every host", () -> {
                t.receiveAll();
                for (int h = 0; h < 3; h++) {
                    boolean signal = false;
                    boolean barrier = false;
                    for (Delivered d : t.notices(h)) {
                        signal |= (d.bits() & (1 << 5)) != 0;
                        barrier |= (d.bits() & 0x02) != 0;
                    }
                    if (!signal || !barrier) {
                        return false;
                    }
                }
                return true;
            });
            t.receiveFor(TckTransport.quietPeriod().multipliedBy(2));
            List<Long> signalPulses = new ArrayList<>();
            List<Long> barrierPulses = new ArrayList<>();
            for (int h = 0; h < 3; h++) {
                List<Long> s = new ArrayList<>();
                List<Long> b = new ArrayList<>();
                for (Delivered d : t.notices(h)) {
                    if ((d.bits() & (1 << 5)) != 0) {
                        s.add(d.pulse());
                    }
                    if ((d.bits() & 0x02) != 0) {
                        b.add(d.pulse());
                    }
                }
                assertThat(s).as("host %d: pulses reporting the signal", h).hasSize(1);
                assertThat(b).as("host %d: pulses reporting the barrier completion", h).hasSize(1);
                signalPulses.add(s.get(0));
                barrierPulses.add(b.get(0));
            }
            assertThat(signalPulses).as("the signal's pulse at each host").containsOnly(signalPulses.get(0));
            assertThat(barrierPulses).as("the barrier's pulse at each host").containsOnly(barrierPulses.get(0));
        }
    }

    /** Keys for {@link OrderChecks#exactlyOnce}. */
    private static final class IsoMbmTestKeys {
        static Set<String> of(String... keys) {
            return new HashSet<>(List.of(keys));
        }
    }
}
