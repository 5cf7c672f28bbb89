package org.portals3j.portals.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.DepositWriter;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * Remote input is hostile: random and mutated frames, fed to the receive path as a transport would,
 * never make it throw, never make it deposit outside a memory descriptor, and each is accounted for by
 * exactly one counter or event.
 */
class HostileInputTest {
    private static final int FRAMES = 100_000;

    @Test
    void randomAndMutatedFramesAreAllAccountedForAndNeverEscapeTheirMemory() throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require("inmem"), job, IdleMode.BACKOFF, Map.of());
        try (Arena arena = Arena.ofShared()) {
            endpoints.get(1).start(new Silent()); // the "attacker" ignores what comes back
            PortalsEngine engine = PortalsEngine.create(job, endpoints.get(0), PortalsConfig.DEFAULT);
            engine.init();
            long ni = engine.niInit(0, ProcessId.PID_ANY, null).handle().value();
            long eq = engine.eqAlloc(ni, 1 << 16);
            MemorySegment region = arena.allocate(4096);
            long me = engine.meAttach(ni, 1, ProcessId.ANY, 0, -1L, Unlink.RETAIN, InsertPosition.AFTER);
            engine.mdAttach(me, MemoryDescriptor.of(region)
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.MANAGE_REMOTE, MdOption.TRUNCATE)
                    .withEventQueue(new EqHandle(eq)), Unlink.RETAIN, Unlink.RETAIN);

            Random random = new Random(2026);
            MemorySegment frame = MemorySegment.ofArray(new byte[MessageHeader.LENGTH]);
            MessageHeader h = new MessageHeader().wrap(frame);
            DepositWriter writer = new DepositWriter();
            Deposit deposit = writer.deposit();
            for (int i = 0; i < FRAMES; i++) {
                long payload = frameFor(random, h, frame, engine, ni);
                int headerLength = random.nextInt(50) == 0 ? random.nextInt(MessageHeader.LENGTH + 1)
                        : MessageHeader.LENGTH;
                writer.reset();
                engine.onHeader(1, frame, headerLength, payload, deposit);
                if (deposit.accepted() && deposit.length() > 0) {
                    // What a transport does: fill exactly the accepted region. accept() already refused
                    // anything outside the segment; check it is inside the MD too.
                    assertThat(deposit.segment().address()).isGreaterThanOrEqualTo(region.address());
                    assertThat(deposit.segment().address() + deposit.offset() + deposit.length())
                            .isLessThanOrEqualTo(region.address() + region.byteSize());
                    deposit.segment().asSlice(deposit.offset(), deposit.length()).fill((byte) i);
                    writer.addDeposited(deposit.length());
                }
                engine.onDeposited(1, deposit);
            }

            NiHandle handle = new NiHandle(ni);
            long accounted = engine.unattributedMessages()
                    + engine.niStatus(ni, StatusRegister.DROP_COUNT)
                    + engine.niStatus(ni, StatusRegister.PUTS_RECEIVED)
                    + engine.niStatus(ni, StatusRegister.GETS_RECEIVED)
                    + countAcks(engine, eq);
            assertThat(accounted).as("every frame ends in exactly one counter or event").isEqualTo(FRAMES);
            assertThat(engine.niStatus(ni, StatusRegister.DROP_MALFORMED)).isPositive();
            assertThat(engine.niStatus(ni, StatusRegister.PUTS_RECEIVED)).isPositive();
            assertThat(handle.value()).isEqualTo(ni);
        } finally {
            endpoints.forEach(Transport::close);
        }
    }

    /** Fills {@code frame}: random bytes, or a valid header of a random type with a few bytes flipped. */
    private static long frameFor(Random random, MessageHeader h, MemorySegment frame, PortalsEngine engine, long ni) {
        if (random.nextInt(4) == 0) {
            for (int b = 0; b < MessageHeader.LENGTH; b++) {
                frame.set(ValueLayout.JAVA_BYTE, b, (byte) random.nextInt());
            }
            return random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(9000);
        }
        MessageType type = MessageType.values()[random.nextInt(4)];
        long length = random.nextInt(8192);
        long mlength = Math.min(length, random.nextInt(8192));
        h.begin(type, random.nextInt(8) == 0 ? 1 : 0).initiator(1, 0).user(random.nextInt(3)).target(0, 0)
                .portal(random.nextInt(70) - 2).cookie(random.nextInt(4) == 0 ? random.nextInt() : 0)
                .matchBits(random.nextLong()).offset(random.nextInt(3) == 0 ? random.nextLong() : random.nextInt(5000))
                .mdHandle(random.nextBoolean() ? random.nextLong() : 0L).length(length)
                .manipulatedLength(type == MessageType.ACK || type == MessageType.REPLY ? mlength : 0)
                .exchange(random.nextLong());
        long payload = switch (type) {
            case PUT -> length;
            case REPLY -> mlength;
            default -> 0;
        };
        int flips = random.nextInt(3);
        for (int f = 0; f < flips; f++) {
            int at = random.nextInt(MessageHeader.LENGTH);
            frame.set(ValueLayout.JAVA_BYTE, at,
                    (byte) (frame.get(ValueLayout.JAVA_BYTE, at) ^ (1 << random.nextInt(8))));
        }
        if (random.nextInt(20) == 0) {
            payload = random.nextInt(100);
        }
        return payload;
    }

    private static long countAcks(PortalsEngine engine, long eq) {
        long acks = 0;
        Event e = new Event();
        while (engine.eqGet(eq, e) != ReturnCode.EQ_EMPTY) {
            if (e.type() == EventKind.ACK) {
                acks++;
            }
        }
        return acks;
    }

    private static final class Silent implements MessageHandler {
        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        }

        @Override
        public void onDeposited(int source, Deposit deposit) {
        }

        @Override
        public void onSendComplete(long token, boolean delivered) {
        }

        @Override
        public void onPeerFailure(int peer) {
        }
    }
}
