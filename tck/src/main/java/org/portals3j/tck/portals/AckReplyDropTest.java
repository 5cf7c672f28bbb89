package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.StatusRegister;
import org.portals3j.portals.Unlink;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.portals.internal.wire.MessageType;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.Transport;

/**
 * Acks, replies and the drop counter (Portals 3.2 spec §4.2, §5.2).
 *
 * <p>Acks and replies that a correct peer cannot produce at the right moment (one arriving after the
 * MD was unlinked, one longer than the MD, one naming a stale MD) come from a <em>raw</em> rank: a rank
 * without a Portals library whose transport the test drives, capturing the requests it is sent and
 * answering them with hand-made frames ({@link MessageHeader}).
 */
@DisplayName("Acks, replies and the drop counter (§8.11, P-248..P-256)")
class AckReplyDropTest {
    private static final int PT = 3;

    // ---- acks -----------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-248")
    void ackArrivingAfterTheInitiatorsMdWasUnlinkedIsDroppedAndCounted() {
        try (TckJob job = TckJob.builder(2).raw(1).start()) {
            Rank a = job.rank(0);
            RawPeer peer = RawPeer.start(job, 1);
            EqHandle eqa = a.eq(8);

            // Control: the hand-made ack is accepted while the MD lives.
            MdHandle live = a.bind(job.pattern(16, 1), eqa);
            a.ptl().put(live, AckRequest.ACK_REQ, peer.id(), PT, 0, 0x77, 5, 0);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            Frame put = peer.next(MessageType.PUT);
            assertThat(put.header().mdHandle()).as("an ack was asked for").isNotZero();
            peer.ack(a, put, 16);
            Event ack = a.next(eqa, EventKind.ACK);
            assertThat(ack.mdHandle()).isEqualTo(live);
            assertThat(a.drops()).isZero();

            // The same, but the MD is unlinked before the ack arrives.
            MdHandle doomed = a.bind(job.pattern(16, 1), eqa);
            a.ptl().put(doomed, AckRequest.ACK_REQ, peer.id(), PT, 0, 0x77, 5, 0);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            Frame put2 = peer.next(MessageType.PUT);
            a.ptl().mdUnlink(doomed); // a put waiting for its ack is not pending
            peer.ack(a, put2, 16);
            a.awaitDrops(1);
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.DROP_STALE_MD)).isEqualTo(1);
            a.expectNoEvent(eqa);

            // A new MD (possibly in the unlinked one's slot) is not taken for the old one.
            MdHandle successor = a.bind(job.pattern(16, 1), eqa);
            peer.ack(a, put2, 16);
            a.awaitDrops(2);
            a.expectNoEvent(eqa);
            assertThat(a.ptl().mdUpdate(successor, null, EqHandle.NONE).status()).isEqualTo(ReturnCode.OK);
        }
    }

    @Test
    @SpecAssertion("P-248")
    void ackForAnMdWhoseEventQueueWasFreedIsDroppedAndCounted() {
        try (TckJob job = TckJob.builder(2).raw(1).start()) {
            Rank a = job.rank(0);
            RawPeer peer = RawPeer.start(job, 1);
            EqHandle eqa = a.eq(8);
            MdHandle md = a.bind(job.pattern(16, 1), eqa);
            a.ptl().put(md, AckRequest.ACK_REQ, peer.id(), PT, 0, 0x77, 0, 0);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            Frame put = peer.next(MessageType.PUT);
            a.ptl().eqFree(eqa);
            EqHandle successor = a.eq(8); // possibly in the freed queue's slot: not the MD's queue

            peer.ack(a, put, 16);
            a.awaitDrops(1);
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.DROP_ACK_NO_EQ)).isEqualTo(1);
            a.expectNoEvent(successor);
        }
    }

    @Test
    @SpecAssertion("P-249")
    void ackArrivingWhenTheInitiatorsEventQueueIsFullIsDroppedAndCounted() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(8);
            b.attach(PT, 0, ~0L, job.allocate(64), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);

            // Room for SEND_START and SEND_END only.
            EqHandle small = a.eq(2);
            a.ptl().put(a.bind(job.pattern(8, 1), small), AckRequest.ACK_REQ, b.id(), PT, 0, 0, 0, 0);
            b.next(eqb, EventKind.PUT_START);
            b.next(eqb, EventKind.PUT_END);
            a.awaitDrops(1);
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.DROP_ACK_NO_EQ)).isEqualTo(1);
            List<Event> events = a.drain(small);
            assertThat(events).extracting(Event::type).containsExactly(EventKind.SEND_START, EventKind.SEND_END);

            // Control: with room for it, the ack is logged and nothing is dropped.
            EqHandle roomy = a.eq(3);
            a.ptl().put(a.bind(job.pattern(8, 1), roomy), AckRequest.ACK_REQ, b.id(), PT, 0, 0, 0, 0);
            a.next(roomy, EventKind.SEND_START);
            a.next(roomy, EventKind.SEND_END);
            a.next(roomy, EventKind.ACK);
            assertThat(a.drops()).isEqualTo(1);
        }
    }

    @Test
    @SpecAssertion("P-250")
    void ackEchoesThePortalMatchBitsAndOffsetOfThePut() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            long bits = (1L << 63) | 0xABCDEFL;
            EqHandle eqb = b.eq(8);
            b.attach(9, bits, 0, job.allocate(32), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE, MdOption.TRUNCATE);

            EqHandle eqa = a.eq(8);
            MdHandle md = a.bind(job.pattern(40, 1), eqa);
            a.ptl().put(md, AckRequest.ACK_REQ, b.id(), 9, 0, bits, 12, 0x1234);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            Event ack = a.next(eqa, EventKind.ACK);
            assertThat(ack.portal()).isEqualTo(9);
            assertThat(ack.matchBits()).isEqualTo(bits);
            assertThat(ack.offset()).isEqualTo(12);
            assertThat(ack.rlength()).isEqualTo(40);
            assertThat(ack.mlength()).as("32 - 12 bytes fitted").isEqualTo(20);
            assertThat(ack.initiator()).as("the ack comes from the put's target").isEqualTo(b.id());
            assertThat(ack.mdHandle()).isEqualTo(md);
        }
    }

    // ---- replies --------------------------------------------------------------------------------

    @Test
    @SpecAssertion("P-251")
    void replyLongerThanTheInitiatorsMdIsTruncatedToItsLength() {
        try (TckJob job = TckJob.builder(2).raw(1).start()) {
            Rank a = job.rank(0);
            RawPeer peer = RawPeer.start(job, 1);
            EqHandle eqa = a.eq(8);
            MemorySegment region = job.allocate(32);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(region).withStart(region, 10).withEventQueue(eqa));
            a.ptl().get(md, peer.id(), PT, 0, 0x5, 0);
            Frame get = peer.next(MessageType.GET);
            assertThat(get.header().length()).as("a get asks for the MD's length").isEqualTo(10);

            peer.reply(a, get, get.header().mdHandle(), get.header().exchange(), 30, job.pattern(30, 1));
            Event start = a.next(eqa, EventKind.REPLY_START);
            Event end = a.next(eqa, EventKind.REPLY_END);
            assertThat(end.link()).isEqualTo(start.link());
            assertThat(end.mlength()).isEqualTo(10);
            ReceiveAcceptanceTest.assertBytes(region, 0, 10, 1);
            assertThat(ReceiveMatchingTest.isZero(region.asSlice(10))).as("bytes past the MD untouched").isTrue();
            assertThat(a.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-252")
    void replyIsAcceptedByAnMdWithNeitherOpPutNorOpGet() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(8);
            b.attach(PT, 0, ~0L, job.pattern(16, 60), eqb, MdOption.OP_GET, MdOption.MANAGE_REMOTE);

            EqHandle eqa = a.eq(8);
            MemorySegment into = job.allocate(16);
            MdHandle md = a.ptl().mdBind(a.ni(), MemoryDescriptor.of(into).withOptionBits(0).withEventQueue(eqa));
            a.ptl().get(md, b.id(), PT, 0, 0, 0);
            a.next(eqa, EventKind.REPLY_START);
            assertThat(a.next(eqa, EventKind.REPLY_END).mlength()).isEqualTo(16);
            ReceiveAcceptanceTest.assertBytes(into, 0, 16, 60);
            assertThat(a.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-253")
    void replyNamingAStaleMdOrNoPendingGetIsDroppedAndCounted() {
        try (TckJob job = TckJob.builder(2).raw(1).start()) {
            Rank a = job.rank(0);
            RawPeer peer = RawPeer.start(job, 1);
            EqHandle eqa = a.eq(8);
            MdHandle stale = a.bind(job.allocate(8), eqa);
            a.ptl().mdUnlink(stale);
            MemorySegment into = job.allocate(8);
            MdHandle md = a.bind(into, eqa);
            a.ptl().get(md, peer.id(), PT, 0, 0x9, 0);
            Frame get = peer.next(MessageType.GET);
            long exchange = get.header().exchange();

            // The pending get's exchange, but the handle of an MD that no longer exists.
            peer.reply(a, get, stale.value(), exchange, 8, job.pattern(8, 1));
            a.awaitDrops(1);
            assertThat(a.ptl().niStatus(a.ni(), StatusRegister.DROP_STALE_MD)).isEqualTo(1);
            a.expectNoEvent(eqa);
            assertThat(ReceiveMatchingTest.isZero(into)).isTrue();

            // The live MD's handle, but no pending get has that exchange.
            peer.reply(a, get, md.value(), exchange ^ (0x5A5AL << 32), 8, job.pattern(8, 1));
            a.awaitDrops(2);
            a.expectNoEvent(eqa);
            assertThat(ReceiveMatchingTest.isZero(into)).isTrue();
            assertCode(ReturnCode.MD_INUSE, () -> a.ptl().mdUnlink(md)); // the get still waits

            // The genuine reply is accepted...
            peer.reply(a, get, md.value(), exchange, 8, job.pattern(8, 1));
            a.next(eqa, EventKind.REPLY_START);
            a.next(eqa, EventKind.REPLY_END);
            ReceiveAcceptanceTest.assertBytes(into, 0, 8, 1);
            assertThat(a.drops()).isEqualTo(2);

            // ...and a second copy of it, for a get that is no longer pending, is dropped.
            peer.reply(a, get, md.value(), exchange, 8, job.pattern(8, 101));
            a.awaitDrops(3);
            a.expectNoEvent(eqa);
            ReceiveAcceptanceTest.assertBytes(into, 0, 8, 1);
        }
    }

    // ---- the drop counter -----------------------------------------------------------------------

    @Test
    @SpecAssertion({"P-254", "P-256"})
    void everyRejectedRequestRaisesTheDropCountByExactlyOneAndItNeverFalls() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(64);
            b.attach(PT, 1, 0, job.allocate(16), eqb, MdOption.OP_PUT, MdOption.MANAGE_REMOTE);
            b.attach(PT, 2, 0, job.pattern(16, 1), eqb, MdOption.OP_GET, MdOption.MANAGE_REMOTE);
            List<Long> samples = new ArrayList<>();
            samples.add(b.drops());

            List<Runnable> rejected = List.of(
                    () -> put(a, b, 64, 0, 1, 8),           // portal past max_ptable_index
                    () -> put(a, b, PT, 9, 1, 8),           // ACL entry 9 allows nothing
                    () -> put(a, b, PT, 0, 3, 8),           // no entry matches
                    () -> put(a, b, PT, 0, 2, 8),           // the matching MD takes no puts
                    () -> put(a, b, PT, 0, 1, 20),          // too long, no TRUNCATE
                    () -> put(b, b, PT + 1, 0, 1, 8),       // from itself, empty list
                    () -> get(a, b, PT, 0, 1, 8),           // the matching MD takes no gets
                    () -> get(a, b, PT, 0, 2, 20),          // too long, no TRUNCATE
                    () -> get(a, b, PT, 9, 2, 8));          // ACL
            long expected = b.drops();
            for (Runnable r : rejected) {
                r.run();
                expected++;
                b.awaitDrops(expected);
                samples.add(b.drops());
                // Interleaved accepted operations and other calls change nothing.
                put(a, b, PT, 0, 1, 8);
                b.next(eqb, EventKind.PUT_START);
                b.next(eqb, EventKind.PUT_END);
                b.ptl().niStatus(b.ni(), StatusRegister.PUTS_RECEIVED);
                b.drain(eqb);
                samples.add(b.drops());
            }
            assertThat(samples).isSorted();
            assertThat(samples.get(samples.size() - 1)).isEqualTo(samples.get(0) + rejected.size());
            b.expectNoEvent(eqb);
        }
    }

    @Test
    @SpecAssertion("P-255")
    void acceptedOperationsIncludingTruncatedAndCaughtOnesLeaveTheDropCountAlone() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle eqb = b.eq(64);
            b.attach(PT, 1, 0, job.pattern(16, 1), eqb, MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE);
            // The §6.2 catch-all: last on the list, zero bytes, truncates everything.
            b.attach(PT, ProcessId.ANY, 0, ~0L, MemoryDescriptor.empty()
                    .withOptions(MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE).withEventQueue(eqb),
                    Unlink.RETAIN, Unlink.RETAIN);

            put(a, b, PT, 0, 1, 40);        // truncated to 16
            get(a, b, PT, 0, 1, 40);        // truncated to what is left (0)
            put(a, b, PT, 0, 0xDEAD, 8);    // caught, 0 bytes
            get(a, b, PT, 0, 0xBEEF, 8);    // caught, 0-byte reply
            put(a, b, PT, 0, 1, 0);         // 0 bytes
            List<Event> events = b.drain(eqb);
            assertThat(events).hasSize(10);
            assertThat(events).extracting(Event::type).doesNotContain(EventKind.PUT_FAIL, EventKind.GET_FAIL);
            assertThat(b.drops()).isZero();
            assertThat(a.drops()).isZero();
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** A put of {@code length} bytes with cookie {@code cookie}; waits for the initiator's SEND_END. */
    private static void put(Rank from, Rank to, int portal, int cookie, long bits, int length) {
        EqHandle eq = from.eq(4);
        MemorySegment data = length == 0 ? MemorySegment.NULL : from.job().pattern(length, 7);
        MdHandle md = from.bind(data, eq);
        from.ptl().put(md, AckRequest.NOACK_REQ, to.id(), portal, cookie, bits, 0, 0);
        from.next(eq, EventKind.SEND_START);
        from.next(eq, EventKind.SEND_END);
        from.ptl().mdUnlink(md);
        from.ptl().eqFree(eq);
    }

    /** A get of {@code length} bytes; does not wait (a rejected get never completes). */
    private static void get(Rank from, Rank to, int portal, int cookie, long bits, int length) {
        MdHandle md = from.bind(from.job().allocate(length), EqHandle.NONE);
        from.ptl().get(md, to.id(), portal, cookie, bits, 0);
    }

    /** A captured frame: its header bytes and payload length. */
    record Frame(MessageHeader header, long payloadLength) {
    }

    /**
     * A rank without a Portals library: records the frames it is sent, and sends hand-made acks and
     * replies with its own (truthful) initiator id.
     */
    static final class RawPeer implements MessageHandler {
        private final Transport transport;
        private final JobMember self;
        private final LinkedBlockingQueue<Frame> frames = new LinkedBlockingQueue<>();

        private RawPeer(Transport transport, JobMember self) {
            this.transport = transport;
            this.self = self;
        }

        static RawPeer start(TckJob job, int rank) {
            RawPeer peer = new RawPeer(job.rawTransport(rank), job.job().peers().member(rank));
            peer.transport.start(peer);
            return peer;
        }

        ProcessId id() {
            return new ProcessId(self.nid(), self.pid());
        }

        /** The next frame sent to this rank, which must be of {@code type}. */
        Frame next(MessageType type) {
            Frame f;
            try {
                f = frames.poll(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (f == null) {
                return fail("no frame reached the raw rank");
            }
            assertThat(f.header().typeCode()).as("frame type").isEqualTo(type.code());
            return f;
        }

        /** Acknowledges {@code put} to {@code initiator}, echoing its fields. */
        void ack(Rank initiator, Frame put, long mlength) {
            MessageHeader p = put.header();
            MemorySegment buffer = MessageHeader.allocate();
            new MessageHeader().wrap(buffer).begin(MessageType.ACK, 0).initiator(self.nid(), self.pid())
                    .user(self.uid()).target(initiator.id().nid(), initiator.id().pid()).portal(p.portal())
                    .matchBits(p.matchBits()).offset(p.offset()).mdHandle(p.mdHandle()).length(p.length())
                    .manipulatedLength(mlength).exchange(p.exchange());
            transport.send(initiator.id().nid(), buffer, MessageHeader.LENGTH, MemorySegment.NULL, 0, 0,
                    Transport.NO_NOTIFY);
        }

        /** A reply to {@code get} carrying {@code data}, naming {@code mdHandle} and {@code exchange}. */
        void reply(Rank initiator, Frame get, long mdHandle, long exchange, long requested, MemorySegment data) {
            MessageHeader g = get.header();
            MemorySegment buffer = MessageHeader.allocate();
            new MessageHeader().wrap(buffer).begin(MessageType.REPLY, 0).initiator(self.nid(), self.pid())
                    .user(self.uid()).target(initiator.id().nid(), initiator.id().pid()).portal(g.portal())
                    .matchBits(g.matchBits()).offset(g.offset()).mdHandle(mdHandle).length(requested)
                    .manipulatedLength(data.byteSize()).exchange(exchange);
            transport.send(initiator.id().nid(), buffer, MessageHeader.LENGTH, data, 0, data.byteSize(),
                    Transport.NO_NOTIFY);
        }

        @Override
        public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
            MemorySegment copy = MessageHeader.allocate();
            MemorySegment.copy(header, 0, copy, 0, Math.min(headerLength, MessageHeader.LENGTH));
            frames.add(new Frame(new MessageHeader().wrap(copy), payloadLength));
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
