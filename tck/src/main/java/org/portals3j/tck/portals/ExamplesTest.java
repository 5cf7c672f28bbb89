package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.portals3j.tck.portals.PortalsAssertions.assertCode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MdUpdateResult;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.ReturnCode;
import org.portals3j.portals.Unlink;
import org.portals3j.tck.SpecAssertion;
import org.portals3j.tck.TckTransport;

/**
 * The chapter-5 examples (Portals 3.2 spec §4.2 to §5.3), re-implemented against the chapter-3 API (the examples'
 * own code is stale, Portals 3.2 spec §5, which says it was not updated to the current API): the parallel file
 * server, the catch-all for dropped requests, and MPI's short, long and race-free receive protocols.
 */
@DisplayName("Chapter-5 example scenarios (§8.13, P-263..P-271)")
class ExamplesTest {

    // =============================================================================================
    // 6.1 Parallel file server (Portals 3.2 spec §5)
    // =============================================================================================

    private static final int CLIENT_UID = 5000;
    private static final int SERVER_UID = 4242;
    private static final int INTRUDER_UID = 6666;
    private static final int SERVERS = 4;
    private static final int STRIPE = 256;
    private static final int IO_SIZE = SERVERS * STRIPE;
    /** Servers: the portal requests are sent to, and the ACL entry that lets clients send them. */
    private static final int REQUEST_PORTAL = 2;
    private static final int REQUEST_ACL = 1;
    /** Client: the portal and ACL entry it sets aside for the servers (Portals 3.2 spec §5.1). */
    private static final int CLIENT_PORTAL = 10;
    private static final int CLIENT_ACL = 3;
    private static final long IO_BITS = 0x10L;
    private static final int READ = 1;
    private static final int WRITE = 2;

    /** A file server request as the client sends it: what to do, and where the client's buffer is. */
    record Request(int op, int nid, int pid, int portal, int cookie, long bits, long size) {
        static final int LENGTH = 40;

        MemorySegment encode(TckJob job) {
            MemorySegment m = job.allocate(LENGTH);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 0, op);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 4, nid);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 8, pid);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 12, portal);
            m.set(ValueLayout.JAVA_INT_UNALIGNED, 16, cookie);
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, 24, bits);
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, 32, size);
            return m;
        }

        static Request decode(MemorySegment m) {
            return new Request(m.get(ValueLayout.JAVA_INT_UNALIGNED, 0), m.get(ValueLayout.JAVA_INT_UNALIGNED, 4),
                    m.get(ValueLayout.JAVA_INT_UNALIGNED, 8), m.get(ValueLayout.JAVA_INT_UNALIGNED, 12),
                    m.get(ValueLayout.JAVA_INT_UNALIGNED, 16), m.get(ValueLayout.JAVA_LONG_UNALIGNED, 24),
                    m.get(ValueLayout.JAVA_LONG_UNALIGNED, 32));
        }
    }

    /** One server process: its request match entry, its event queue and its stripe of the "disk". */
    private static final class Server {
        final Rank rank;
        final int stripe;
        final EqHandle eq;
        final MemorySegment disk;

        Server(Rank rank, int stripe, MemorySegment disk) {
            this.rank = rank;
            this.stripe = stripe;
            this.disk = disk;
            Portals p = rank.ptl();
            this.eq = rank.eq(32);
            // Clients (any uid) may send requests to the request portal.
            p.acEntry(rank.ni(), REQUEST_ACL, ProcessId.ANY, Portals.UID_ANY, REQUEST_PORTAL);
            MeHandle me = p.meAttach(rank.ni(), REQUEST_PORTAL, ProcessId.ANY, 0, ~0L, Unlink.RETAIN,
                    InsertPosition.AFTER);
            p.mdAttach(me, MemoryDescriptor.of(rank.job().allocate(16L * Request.LENGTH))
                    .withOptions(MdOption.OP_PUT).withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
        }

        /** Waits for the next request; the data is read where the PUT_END event says it landed. */
        Request nextRequest() {
            rank.next(eq, EventKind.PUT_START);
            Event end = rank.next(eq, EventKind.PUT_END);
            assertThat(end.mlength()).isEqualTo(Request.LENGTH);
            return Request.decode(end.memDescStart().asSlice(end.offset(), Request.LENGTH));
        }

        /** Passes a request on to another server (same uid: ACL entry 0 of the default interface). */
        void forward(Request r, Server to) {
            ReceiveMatchingTest.sendPut(rank, rank.ni(), to.rank.id(), REQUEST_PORTAL, 0, 0, 0, r.encode(rank.job()));
        }

        /** Moves this server's stripe to or from the client buffer, at the stripe's own offset. */
        void serve(Request r) {
            Portals p = rank.ptl();
            MdHandle md = p.mdBind(rank.ni(), MemoryDescriptor.of(disk).withEventQueue(eq));
            ProcessId client = new ProcessId(r.nid(), r.pid());
            long offset = (long) stripe * STRIPE;
            if (r.op() == READ) {
                p.put(md, AckRequest.NOACK_REQ, client, r.portal(), r.cookie(), r.bits(), offset, 0);
                rank.next(eq, EventKind.SEND_START);
                rank.next(eq, EventKind.SEND_END);
            } else {
                p.get(md, client, r.portal(), r.cookie(), r.bits(), offset);
                rank.next(eq, EventKind.REPLY_START);
                assertThat(rank.next(eq, EventKind.REPLY_END).mlength()).isEqualTo(STRIPE);
            }
            p.mdUnlink(md);
        }
    }

    private static TckJob fileServerJob() {
        TckJob.Builder b = TckJob.builder(SERVERS + 2).uid(0, CLIENT_UID).uid(SERVERS + 1, INTRUDER_UID);
        for (int s = 1; s <= SERVERS; s++) {
            b.uid(s, SERVER_UID);
        }
        return b.start();
    }

    private static List<Server> servers(TckJob job) {
        List<Server> servers = new ArrayList<>();
        for (int s = 0; s < SERVERS; s++) {
            servers.add(new Server(job.rank(s + 1), s, job.pattern(STRIPE, 37 * (s + 1))));
        }
        return servers;
    }

    /** The client's side of one I/O: an ACL entry for the servers, and a remotely managed MD on its portal. */
    private static EqHandle clientSetUp(Rank client, MemorySegment buffer, MdOption op) {
        Portals p = client.ptl();
        p.acEntry(client.ni(), CLIENT_ACL, ProcessId.ANY, SERVER_UID, CLIENT_PORTAL);
        EqHandle eq = client.eq(32);
        MeHandle me = p.meAttach(client.ni(), CLIENT_PORTAL, ProcessId.ANY, IO_BITS, 0, Unlink.RETAIN,
                InsertPosition.AFTER);
        p.mdAttach(me, MemoryDescriptor.of(buffer).withOptions(op, MdOption.MANAGE_REMOTE).withEventQueue(eq),
                Unlink.RETAIN, Unlink.RETAIN);
        return eq;
    }

    /** Sends {@code r} to the first server, which passes it on to the others; each then serves its stripe. */
    private static void runServers(Rank client, List<Server> servers, Request r) {
        ReceiveMatchingTest.sendPut(client, client.ni(), servers.get(0).rank.id(), REQUEST_PORTAL, REQUEST_ACL, 0, 0,
                r.encode(client.job()));
        Request got = servers.get(0).nextRequest();
        assertThat(got).isEqualTo(r);
        for (Server s : servers.subList(1, servers.size())) {
            servers.get(0).forward(got, s);
        }
        servers.get(0).serve(got);
        for (Server s : servers.subList(1, servers.size())) {
            s.serve(s.nextRequest());
        }
    }

    /** Adds up {@code kind}'s mlength until it reaches the I/O size (the completion rule of Portals 3.2 spec §5.1). */
    private static long awaitCompletion(Rank client, EqHandle eq, EventKind end) {
        long sum = 0;
        int ends = 0;
        while (sum < IO_SIZE) {
            Event e = client.next(eq);
            if (e.type() == end) {
                sum += e.mlength();
                ends++;
            } else {
                assertThat(e.type().isStart()).as("unexpected %s", e).isTrue();
            }
        }
        assertThat(ends).isEqualTo(SERVERS);
        return sum;
    }

    @Test
    @SpecAssertion("P-263")
    void fileServerReadAssemblesTheStripesInTheClientBuffer() {
        try (TckJob job = fileServerJob()) {
            Rank client = job.rank(0);
            List<Server> servers = servers(job);
            MemorySegment buffer = job.allocate(IO_SIZE);
            EqHandle eq = clientSetUp(client, buffer, MdOption.OP_PUT);

            runServers(client, servers, new Request(READ, client.id().nid(), client.id().pid(), CLIENT_PORTAL,
                    CLIENT_ACL, IO_BITS, IO_SIZE));

            assertThat(awaitCompletion(client, eq, EventKind.PUT_END)).isEqualTo(IO_SIZE);
            for (Server s : servers) {
                assertThat(buffer.asSlice((long) s.stripe * STRIPE, STRIPE).mismatch(s.disk))
                        .as("stripe %d", s.stripe).isEqualTo(-1L);
            }
            assertThat(client.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-263")
    void fileServerWriteFetchesEachStripeFromTheClientBuffer() {
        try (TckJob job = fileServerJob()) {
            Rank client = job.rank(0);
            List<Server> servers = new ArrayList<>();
            for (int s = 0; s < SERVERS; s++) {
                servers.add(new Server(job.rank(s + 1), s, job.allocate(STRIPE)));
            }
            MemorySegment data = job.pattern(IO_SIZE, 3);
            EqHandle eq = clientSetUp(client, data, MdOption.OP_GET);

            runServers(client, servers, new Request(WRITE, client.id().nid(), client.id().pid(), CLIENT_PORTAL,
                    CLIENT_ACL, IO_BITS, IO_SIZE));

            assertThat(awaitCompletion(client, eq, EventKind.GET_END)).isEqualTo(IO_SIZE);
            for (Server s : servers) {
                assertThat(s.disk.mismatch(data.asSlice((long) s.stripe * STRIPE, STRIPE)))
                        .as("stripe %d", s.stripe).isEqualTo(-1L);
            }
            assertThat(client.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-264")
    void processesOutsideTheServersAclEntryCannotPutIntoTheClientPortal() {
        try (TckJob job = fileServerJob()) {
            Rank client = job.rank(0);
            Rank server = job.rank(1);
            Rank intruder = job.rank(SERVERS + 1);
            MemorySegment buffer = job.allocate(IO_SIZE);
            EqHandle eq = clientSetUp(client, buffer, MdOption.OP_PUT);
            // Something on the next portal too, so that only access control can refuse puts there.
            client.attach(CLIENT_PORTAL + 1, 0, ~0L, job.allocate(64), eq, MdOption.OP_PUT);

            // A process of another user, with the servers' cookie.
            ReceiveMatchingTest.sendPut(intruder, intruder.ni(), client.id(), CLIENT_PORTAL, CLIENT_ACL, IO_BITS, 0,
                    job.pattern(STRIPE, 1));
            client.awaitDrops(1);
            // A server, with the servers' cookie, on a portal the entry does not name.
            ReceiveMatchingTest.sendPut(server, server.ni(), client.id(), CLIENT_PORTAL + 1, CLIENT_ACL, 0, 0,
                    job.pattern(8, 1));
            client.awaitDrops(2);
            // A server with cookie 0: entry 0 admits only the client's own uid.
            ReceiveMatchingTest.sendPut(server, server.ni(), client.id(), CLIENT_PORTAL, 0, IO_BITS, 0,
                    job.pattern(STRIPE, 1));
            client.awaitDrops(3);
            client.expectNoEvent(eq);
            assertThat(ReceiveMatchingTest.isZero(buffer)).isTrue();

            // The server with the right cookie and portal gets in.
            ReceiveMatchingTest.sendPut(server, server.ni(), client.id(), CLIENT_PORTAL, CLIENT_ACL, IO_BITS, STRIPE,
                    job.pattern(STRIPE, 1));
            client.next(eq, EventKind.PUT_START);
            assertThat(client.next(eq, EventKind.PUT_END).offset()).isEqualTo(STRIPE);
            assertThat(client.drops()).isEqualTo(3);
        }
    }

    // =============================================================================================
    // 6.2 Dealing with dropped requests (Portals 3.2 spec §5.1, §5.2)
    // =============================================================================================

    private static final int DROP_SIZE = 32;
    private static final int SERVICE_PORTAL = 7;
    private static final long STOP_BITS = 0x5700L;

    /** What the watcher saw of one event. */
    record Seen(EventKind type, ProcessId initiator, long rlength, long mlength, long bits) {
    }

    /** Appends the catch-all entry of {@code watch_drop} to {@code portal}'s list; returns its event queue. */
    private static EqHandle appendCatchAll(Rank r, int portal, int threshold) {
        Portals p = r.ptl();
        EqHandle dropEvents = p.eqAlloc(r.ni(), DROP_SIZE);
        MeHandle matchAny = p.meAttach(r.ni(), portal, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
        MemoryDescriptor dropDesc = new MemoryDescriptor(MemorySegment.NULL, 0, threshold, 0,
                MdOption.bits(MdOption.OP_PUT, MdOption.OP_GET, MdOption.TRUNCATE), null, dropEvents);
        p.mdAttach(matchAny, dropDesc, Unlink.RETAIN, Unlink.RETAIN);
        return dropEvents;
    }

    @Test
    @SpecAssertion("P-265")
    void catchAllEntryLogsOtherwiseDroppedRequestsWithNoDataAndNoDrop() throws Exception {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            EqHandle service = b.eq(16);
            MemorySegment serviceMem = job.allocate(64);
            b.attach(SERVICE_PORTAL, 1, 0, serviceMem, service, MdOption.OP_PUT);
            EqHandle dropEvents = appendCatchAll(b, SERVICE_PORTAL, MemoryDescriptor.THRESH_INF);

            // The watch_drop thread: PtlEQWait in a loop; PTL_EQ_DROPPED is a success too.
            LinkedBlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<Throwable> errors = new LinkedBlockingQueue<>();
            Thread watcher = new Thread(() -> {
                Event event = new Event();
                try {
                    while (true) {
                        ReturnCode rc = b.ptl().eqWait(dropEvents, event);
                        if (rc != ReturnCode.OK && rc != ReturnCode.EQ_DROPPED) {
                            throw new AssertionError("PtlEQWait returned " + rc);
                        }
                        seen.add(new Seen(event.type(), event.initiator(), event.rlength(), event.mlength(),
                                event.matchBits()));
                        if (event.matchBits() == STOP_BITS && event.type() == EventKind.PUT_END) {
                            return;
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }, "watch_drop");
            watcher.start();

            // An unexpected put: caught, not dropped.
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), SERVICE_PORTAL, 0, 0x99, 0, job.pattern(24, 1));
            assertThat(take(seen)).isEqualTo(new Seen(EventKind.PUT_START, a.id(), 24, 0, 0x99));
            assertThat(take(seen)).isEqualTo(new Seen(EventKind.PUT_END, a.id(), 24, 0, 0x99));
            assertThat(b.drops()).isZero();

            // An expected put still goes to its own entry.
            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), SERVICE_PORTAL, 0, 1, 0, job.pattern(8, 1));
            b.next(service, EventKind.PUT_START);
            b.next(service, EventKind.PUT_END);

            // An unexpected get is answered with 0 bytes.
            EqHandle eqa = a.eq(8);
            MemorySegment into = job.pattern(16, 0x40);
            a.ptl().get(a.bind(into, eqa), b.id(), SERVICE_PORTAL, 0, 0x77, 0);
            a.next(eqa, EventKind.REPLY_START);
            assertThat(a.next(eqa, EventKind.REPLY_END).mlength()).isZero();
            ReceiveAcceptanceTest.assertBytes(into, 0, 16, 0x40);
            assertThat(take(seen)).isEqualTo(new Seen(EventKind.GET_START, a.id(), 16, 0, 0x77));
            assertThat(take(seen)).isEqualTo(new Seen(EventKind.GET_END, a.id(), 16, 0, 0x77));

            // An unexpected put asking for an ack is acknowledged with manipulated length 0.
            MdHandle withAck = a.bind(job.pattern(12, 1), eqa);
            a.ptl().put(withAck, AckRequest.ACK_REQ, b.id(), SERVICE_PORTAL, 0, 0x55, 0, 0);
            a.next(eqa, EventKind.SEND_START);
            a.next(eqa, EventKind.SEND_END);
            Event ack = a.next(eqa, EventKind.ACK);
            assertThat(ack.mlength()).isZero();
            assertThat(ack.rlength()).isEqualTo(12);
            assertThat(take(seen).type()).isEqualTo(EventKind.PUT_START);
            assertThat(take(seen).type()).isEqualTo(EventKind.PUT_END);

            ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), SERVICE_PORTAL, 0, STOP_BITS, 0, MemorySegment.NULL);
            ThreadsHandlesTest.joinAll(watcher);
            assertThat(errors).isEmpty();
            assertThat(ReceiveMatchingTest.isZero(serviceMem.asSlice(8))).isTrue();
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-266")
    void catchAllWithFiniteThresholdLogsOnlyTheFirstNRequests() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            int n = 3;
            EqHandle dropEvents = appendCatchAll(b, SERVICE_PORTAL, n);
            for (int i = 0; i < 5; i++) {
                ReceiveMatchingTest.sendPut(a, a.ni(), b.id(), SERVICE_PORTAL, 0, 0x100 + i, 0, job.pattern(8, i));
            }
            b.awaitDrops(2);
            List<Event> events = b.drain(dropEvents);
            assertThat(events).extracting(Event::type).containsExactly(EventKind.PUT_START, EventKind.PUT_END,
                    EventKind.PUT_START, EventKind.PUT_END, EventKind.PUT_START, EventKind.PUT_END);
            assertThat(events).extracting(Event::matchBits)
                    .containsExactly(0x100L, 0x100L, 0x101L, 0x101L, 0x102L, 0x102L);
        }
    }

    // =============================================================================================
    // 6.3 MPI (Portals 3.2 spec §5.2, §5.3)
    // =============================================================================================

    /** MPI over Portals (Portals 3.2 spec §5.3), the example rewritten against the chapter-3 API. */
    static final class Mpi {
        static final int SEND_PINDEX = 4;
        static final int GET_PINDEX = 5;
        static final int AINDEX = 0;
        /** The protocol bit: 1 = long, 0 = short (Portals 3.2 spec §5.3). */
        static final long LONG_BIT = 1L << 63;
        /** Messages of this length or more are long. */
        static final int LONG_LENGTH = 32;
        static final int MAX_SHORT = LONG_LENGTH - 1;
        static final int SHORT_BUFFER = 128;

        final Rank rank;
        final Portals p;
        final NiHandle ni;
        /** The EQ all unexpected-message MDs share (Portals 3.2 spec §5.3). */
        final EqHandle unexpQueue;
        /** The EQ of this process's sends and receives. */
        final EqHandle eventq;
        final MeHandle rcvMark;
        final MeHandle endGet;
        final List<MeHandle> shortMes = new ArrayList<>();
        final List<MdHandle> shortMds = new ArrayList<>();
        final List<MemorySegment> shortBuffers = new ArrayList<>();
        /** Unexpected messages already taken off UnexpQueue (the user-level list {@code Rcvd}). */
        final List<Event> rcvd = new ArrayList<>();

        Mpi(Rank rank, int shortEntries) {
            this.rank = rank;
            this.p = rank.ptl();
            this.ni = rank.ni();
            this.unexpQueue = p.eqAlloc(ni, 64);
            this.eventq = p.eqAlloc(ni, 64);
            // Receive portal: [posted receives] RcvMark, short-message entries, the long-message entry.
            rcvMark = p.meAttach(ni, SEND_PINDEX, ProcessId.ANY, 0, 0, Unlink.RETAIN, InsertPosition.AFTER); // no MD
            for (int i = 0; i < shortEntries; i++) {
                MemorySegment buffer = rank.job().allocate(SHORT_BUFFER);
                // "A 0 in the most significant bit" (Portals 3.2 spec §5.3).
                MeHandle me = p.meAttach(ni, SEND_PINDEX, ProcessId.ANY, 0, ~LONG_BIT, Unlink.UNLINK,
                        InsertPosition.AFTER);
                MdHandle md = p.mdAttach(me, new MemoryDescriptor(buffer, SHORT_BUFFER, MemoryDescriptor.THRESH_INF,
                        SHORT_BUFFER - MAX_SHORT, MdOption.bits(MdOption.OP_PUT, MdOption.ACK_DISABLE), "short",
                        unexpQueue), Unlink.UNLINK, Unlink.RETAIN);
                shortMes.add(me);
                shortMds.add(md);
                shortBuffers.add(buffer);
            }
            MeHandle longMe = p.meAttach(ni, SEND_PINDEX, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            p.mdAttach(longMe, new MemoryDescriptor(MemorySegment.NULL, 0, MemoryDescriptor.THRESH_INF, 0,
                    MdOption.bits(MdOption.OP_PUT, MdOption.TRUNCATE, MdOption.ACK_DISABLE), "long", unexpQueue),
                    Unlink.RETAIN, Unlink.RETAIN);
            // Get portal: EndGet is last, and its MD rejects every get (Portals 3.2 spec §5.3).
            endGet = p.meAttach(ni, GET_PINDEX, ProcessId.ANY, 0, ~0L, Unlink.RETAIN, InsertPosition.AFTER);
            p.mdAttach(endGet, MemoryDescriptor.empty(), Unlink.RETAIN, Unlink.RETAIN);
        }

        /** Context, source and tag in the low 63 bits; bit 63 is left for the protocol. */
        static long match(int context, int source, int tag) {
            return ((long) (context & 0x7FFF) << 48) | ((long) (source & 0xFFFF) << 32) | (tag & 0xFFFF_FFFFL);
        }

        /** What MPIsend set up. */
        record Send(MdHandle sendMd, @Nullable MeHandle getMe, @Nullable MdHandle getMd) {
        }

        /** {@code MPIsend} (Portals 3.2 spec §5.3). */
        Send send(MemorySegment buf, ProcessId target, long match) {
            long len = buf.byteSize();
            MemoryDescriptor md = new MemoryDescriptor(buf, len, 1, len, MdOption.OP_GET.bit(), "send", eventq);
            MeHandle getMe = null;
            MdHandle getMd = null;
            AckRequest ack;
            long bits;
            if (len >= LONG_LENGTH) {
                // Only the receiver may get the body; inserted just before EndGet, with the protocol bit (defect 3).
                getMe = p.meInsert(endGet, target, match | LONG_BIT, 0, Unlink.UNLINK, InsertPosition.BEFORE);
                getMd = p.mdAttach(getMe, md, Unlink.UNLINK, Unlink.RETAIN);
                ack = AckRequest.ACK_REQ;
                bits = match | LONG_BIT;
            } else {
                ack = AckRequest.NOACK_REQ; // defect 2: short messages ask for no ack
                bits = match & ~LONG_BIT;
            }
            MdHandle sendMd = p.mdBind(ni, md);
            p.put(sendMd, ack, target, SEND_PINDEX, AINDEX, bits, 0, 0);
            return new Send(sendMd, getMe, getMd);
        }

        /** The outcome of {@code MPIreceive}. */
        record Receive(boolean received, long length, @Nullable MdHandle posted, int noUpdates,
                       @Nullable Event matched) {
        }

        /**
         * {@code MPIreceive} (Portals 3.2 spec §5.3), with the race-free posting of Portals 3.2 spec §5.3; {@code
         * window} runs between steps 3 and 4.
         */
        Receive receive(MemorySegment buf, ProcessId source, long match, long ignore, Runnable window) {
            MemoryDescriptor mdBuf = new MemoryDescriptor(buf, buf.byteSize(), 0, buf.byteSize(),
                    MdOption.OP_PUT.bit(), "recv", eventq);
            // Step 2: the unexpected messages already seen.
            for (Iterator<Event> it = rcvd.iterator(); it.hasNext(); ) {
                Event ev = it.next();
                if (matches(ev, source, match, ignore)) {
                    it.remove();
                    return copyMsg(ev, mdBuf, 0);
                }
            }
            // Step 3: after all earlier posted receives, before the unexpected entries; inactive.
            MeHandle me = p.meInsert(rcvMark, source, match, ignore | LONG_BIT, Unlink.UNLINK, InsertPosition.BEFORE);
            MdHandle mdHandle = p.mdAttach(me, mdBuf, Unlink.UNLINK, Unlink.RETAIN);
            window.run();
            // Step 4: switch it on only while UnexpQueue is empty.
            MemoryDescriptor active = mdBuf.withThreshold(1);
            int noUpdates = 0;
            Event ev = new Event();
            while (true) {
                ReturnCode rc = p.eqGet(unexpQueue, ev);
                if (rc == ReturnCode.EQ_DROPPED) {
                    fail("unexpected messages were lost: fatal for MPI (defect 7)");
                }
                if (rc == ReturnCode.OK && ev.type() == EventKind.PUT_END) { // a whole message
                    Event copy = new Event().copyFrom(ev);
                    if (matches(copy, source, match, ignore)) {
                        p.mdUnlink(mdHandle); // defect 6: do not leak the inactive receive
                        return copyMsg(copy, mdBuf, noUpdates);
                    }
                    rcvd.add(copy);
                }
                MdUpdateResult r = p.mdUpdate(mdHandle, active, unexpQueue);
                if (r.status() == ReturnCode.OK) {
                    return new Receive(false, 0, mdHandle, noUpdates, null);
                }
                noUpdates++;
            }
        }

        Receive receive(MemorySegment buf, ProcessId source, long match, long ignore) {
            return receive(buf, source, match, ignore, () -> { });
        }

        /** {@code CopyMsg}: a long message's body is fetched with PtlGet; a short one is copied out. */
        private Receive copyMsg(Event ev, MemoryDescriptor mdBuf, int noUpdates) {
            if (ev.rlength() >= LONG_LENGTH) {
                MdHandle h = p.mdBind(ni, mdBuf.withThreshold(1)); // defect 9: not the inactive threshold
                p.get(h, ev.initiator(), GET_PINDEX, AINDEX, ev.matchBits(), 0);
                return new Receive(false, 0, h, noUpdates, ev);
            }
            long n = Math.min(ev.mlength(), mdBuf.length());
            MemorySegment.copy(ev.memDescStart(), ev.offset(), mdBuf.start(), 0, n);
            return new Receive(true, n, null, noUpdates, ev);
        }

        static boolean matches(Event ev, ProcessId source, long match, long ignore) {
            return source.matches(ev.initiatorNid(), ev.initiatorPid())
                    && ((ev.matchBits() ^ match) & ~(ignore | LONG_BIT)) == 0;
        }

        /** True if UnexpQueue holds an event (probed with a conditional PtlMDUpdate that changes nothing). */
        boolean unexpectedPending(MdHandle any) {
            return p.mdUpdate(any, null, unexpQueue).status() == ReturnCode.NOUPDATE;
        }
    }

    private static Event awaitKind(Rank r, EqHandle eq, EventKind kind) {
        return r.next(eq, kind);
    }

    @Test
    @SpecAssertion("P-267")
    void shortUnexpectedMessagesAreAppendedToTheSharedShortBuffer() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 2);
            Mpi receiver = new Mpi(b, 2);
            int[] lengths = {10, 20, 5};
            long[] offsets = {0, 10, 30};
            for (int i = 0; i < lengths.length; i++) {
                sender.send(job.pattern(lengths[i], 50 * i), b.id(), Mpi.match(1, a.id().nid(), i + 1));
                awaitKind(a, sender.eventq, EventKind.SEND_START);
                awaitKind(a, sender.eventq, EventKind.SEND_END);
            }
            for (int i = 0; i < lengths.length; i++) {
                Event start = awaitKind(b, receiver.unexpQueue, EventKind.PUT_START);
                Event end = awaitKind(b, receiver.unexpQueue, EventKind.PUT_END);
                assertThat(end.link()).isEqualTo(start.link());
                assertThat(end.offset()).as("message %d", i).isEqualTo(offsets[i]);
                assertThat(end.mlength()).isEqualTo(lengths[i]);
                assertThat(end.rlength()).isEqualTo(lengths[i]);
                assertThat(end.mdHandle()).isEqualTo(receiver.shortMds.get(0));
                assertThat(end.matchBits() & Mpi.LONG_BIT).isZero();
                ReceiveAcceptanceTest.assertBytes(receiver.shortBuffers.get(0), offsets[i], lengths[i], 50 * i);
                receiver.rcvd.add(new Event().copyFrom(end));
            }
            a.expectNoEvent(sender.eventq); // no acks for short messages

            // MPIreceive of the second message finds it among those already seen and copies it out.
            MemorySegment buf = job.allocate(32);
            Mpi.Receive r = receiver.receive(buf, a.id(), Mpi.match(1, a.id().nid(), 2), 0);
            assertThat(r.received()).isTrue();
            assertThat(r.length()).isEqualTo(20);
            ReceiveAcceptanceTest.assertBytes(buf, 0, 20, 50);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-268")
    void fullShortBufferIsUnlinkedAndTheNextShortEntryTakesOver() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 2);
            long bits = Mpi.match(1, a.id().nid(), 3);
            // 4 messages of the largest short length: offsets 0, 31, 62, 93 (<= max_offset 97), then 124 > 97.
            Event lastEnd = new Event();
            for (int i = 0; i < 4; i++) {
                sender.send(job.pattern(Mpi.MAX_SHORT, i), b.id(), bits);
                awaitKind(b, receiver.unexpQueue, EventKind.PUT_START);
                lastEnd = awaitKind(b, receiver.unexpQueue, EventKind.PUT_END);
                assertThat(lastEnd.offset()).isEqualTo((long) i * Mpi.MAX_SHORT);
                assertThat(lastEnd.mdHandle()).isEqualTo(receiver.shortMds.get(0));
            }
            Event unlink = awaitKind(b, receiver.unexpQueue, EventKind.UNLINK);
            assertThat(unlink.mdHandle()).isEqualTo(receiver.shortMds.get(0));
            assertThat(unlink.link()).isEqualTo(lastEnd.sequence());
            MdHandle full = receiver.shortMds.get(0);
            MeHandle fullMe = receiver.shortMes.get(0);
            assertCode(ReturnCode.INV_MD, () -> b.ptl().mdUpdate(full, null, EqHandle.NONE));
            assertCode(ReturnCode.INV_ME, () -> b.ptl().meUnlink(fullMe));

            sender.send(job.pattern(10, 200), b.id(), bits);
            awaitKind(b, receiver.unexpQueue, EventKind.PUT_START);
            Event next = awaitKind(b, receiver.unexpQueue, EventKind.PUT_END);
            assertThat(next.mdHandle()).isEqualTo(receiver.shortMds.get(1));
            assertThat(next.offset()).isZero();
            ReceiveAcceptanceTest.assertBytes(receiver.shortBuffers.get(1), 0, 10, 200);
            assertThat(b.drops()).isZero();
        }
    }

    @Test
    @SpecAssertion("P-269")
    void receivesPostedBeforeRcvMarkAreFilledInOrderAheadOfTheUnexpectedEntries() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 1);
            long bits = Mpi.match(1, a.id().nid(), 7);
            MemorySegment buf1 = job.allocate(16);
            MemorySegment buf2 = job.allocate(16);
            Mpi.Receive p1 = receiver.receive(buf1, a.id(), bits, 0);
            Mpi.Receive p2 = receiver.receive(buf2, a.id(), bits, 0);
            assertThat(p1.received()).isFalse();
            assertThat(p2.received()).isFalse();
            MdHandle md1 = nonNull(p1.posted());
            MdHandle md2 = nonNull(p2.posted());

            sender.send(job.pattern(12, 1), b.id(), bits);
            sender.send(job.pattern(12, 101), b.id(), bits);
            Event s1 = awaitKind(b, receiver.eventq, EventKind.PUT_START);
            assertThat(s1.mdHandle()).as("first message, first posted receive").isEqualTo(md1);
            assertThat(awaitKind(b, receiver.eventq, EventKind.PUT_END).mdHandle()).isEqualTo(md1);
            assertThat(awaitKind(b, receiver.eventq, EventKind.UNLINK).mdHandle()).isEqualTo(md1);
            assertThat(awaitKind(b, receiver.eventq, EventKind.PUT_START).mdHandle()).isEqualTo(md2);
            assertThat(awaitKind(b, receiver.eventq, EventKind.PUT_END).mdHandle()).isEqualTo(md2);
            assertThat(awaitKind(b, receiver.eventq, EventKind.UNLINK).mdHandle()).isEqualTo(md2);
            ReceiveAcceptanceTest.assertBytes(buf1, 0, 12, 1);
            ReceiveAcceptanceTest.assertBytes(buf2, 0, 12, 101);
            b.expectNoEvent(receiver.unexpQueue);
            assertThat(ReceiveMatchingTest.isZero(receiver.shortBuffers.get(0))).isTrue();

            // With no receive posted any more, the next one is unexpected.
            sender.send(job.pattern(12, 201), b.id(), bits);
            awaitKind(b, receiver.unexpQueue, EventKind.PUT_START);
            awaitKind(b, receiver.unexpQueue, EventKind.PUT_END);
            b.expectNoEvent(receiver.eventq);
        }
    }

    @Test
    @SpecAssertion("P-270")
    void messageArrivingBeforeActivationGoesToUnexpQueueAndBlocksTheUpdateUntilDrained() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 1);
            Portals p = b.ptl();
            long bits = Mpi.match(1, a.id().nid(), 5);
            MemorySegment buf = job.allocate(16);

            // Steps 1 and 3 of the race-free receive: the MD goes in inactive (threshold 0).
            MemoryDescriptor mdBuf = new MemoryDescriptor(buf, 16, 0, 16, MdOption.OP_PUT.bit(), "recv",
                    receiver.eventq);
            MeHandle me = p.meInsert(receiver.rcvMark, a.id(), bits, Mpi.LONG_BIT, Unlink.UNLINK,
                    InsertPosition.BEFORE);
            MdHandle md = p.mdAttach(me, mdBuf, Unlink.UNLINK, Unlink.RETAIN);

            // The matching message arrives now: it passes the inactive receive and is unexpected.
            sender.send(job.pattern(10, 1), b.id(), bits);
            awaitUnexpected(receiver, md);
            assertThat(p.mdUpdate(md, null, EqHandle.NONE).previous().threshold()).isZero();
            b.expectNoEvent(receiver.eventq);
            assertThat(ReceiveMatchingTest.isZero(buf)).isTrue();

            // Step 4: the activation is refused while UnexpQueue holds anything.
            MemoryDescriptor active = mdBuf.withThreshold(1);
            MdUpdateResult refused = p.mdUpdate(md, active, receiver.unexpQueue);
            assertThat(refused.status()).isEqualTo(ReturnCode.NOUPDATE);
            assertThat(refused.previous().threshold()).isZero();
            Event e = new Event();
            assertThat(p.eqGet(receiver.unexpQueue, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.PUT_START);
            assertThat(p.mdUpdate(md, active, receiver.unexpQueue).status()).as("END still queued")
                    .isEqualTo(ReturnCode.NOUPDATE);
            assertThat(p.eqGet(receiver.unexpQueue, e)).isEqualTo(ReturnCode.OK);
            assertThat(e.type()).isEqualTo(EventKind.PUT_END);
            assertThat(Mpi.matches(e, a.id(), bits, 0)).isTrue();
            assertThat(p.mdUpdate(md, null, EqHandle.NONE).previous().threshold()).as("never activated").isZero();

            // It matches: unlink the unused receive (its entry goes too), then copy the message out.
            p.mdUnlink(md);
            assertCode(ReturnCode.INV_ME, () -> p.meUnlink(me));
            MemorySegment.copy(e.memDescStart(), e.offset(), buf, 0, e.mlength());
            ReceiveAcceptanceTest.assertBytes(buf, 0, 10, 1);

            // Drained: now an activation is accepted.
            MdHandle other = p.mdAttach(p.meInsert(receiver.rcvMark, a.id(), bits, Mpi.LONG_BIT, Unlink.UNLINK,
                    InsertPosition.BEFORE), mdBuf, Unlink.UNLINK, Unlink.RETAIN);
            assertThat(p.mdUpdate(other, active, receiver.unexpQueue).status()).isEqualTo(ReturnCode.OK);
        }
    }

    @Test
    @SpecAssertion("P-270")
    void nonMatchingArrivalIsSetAsideAndTheReceiveIsThenActivated() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 1);
            long tag5 = Mpi.match(1, a.id().nid(), 5);
            long tag6 = Mpi.match(1, a.id().nid(), 6);
            MemorySegment buf = job.allocate(16);

            Mpi.Receive r = receiver.receive(buf, a.id(), tag5, 0, () -> {
                sender.send(job.pattern(8, 60), b.id(), tag6); // arrives in the window, for another receive
                awaitUnexpected(receiver, receiver.shortMds.get(0));
            });
            assertThat(r.received()).isFalse();
            assertThat(r.noUpdates()).as("PtlMDUpdate returned PTL_NOUPDATE before UnexpQueue was drained")
                    .isPositive();
            MdHandle posted = nonNull(r.posted());
            assertThat(b.ptl().mdUpdate(posted, null, EqHandle.NONE).previous().threshold()).isEqualTo(1);

            // The matching message now goes straight into the posted receive.
            sender.send(job.pattern(8, 1), b.id(), tag5);
            assertThat(awaitKind(b, receiver.eventq, EventKind.PUT_START).mdHandle()).isEqualTo(posted);
            awaitKind(b, receiver.eventq, EventKind.PUT_END);
            awaitKind(b, receiver.eventq, EventKind.UNLINK);
            ReceiveAcceptanceTest.assertBytes(buf, 0, 8, 1);
            b.expectNoEvent(receiver.unexpQueue);

            // The one set aside is found by the next receive for it.
            MemorySegment buf6 = job.allocate(16);
            Mpi.Receive r6 = receiver.receive(buf6, a.id(), tag6, 0);
            assertThat(r6.received()).isTrue();
            ReceiveAcceptanceTest.assertBytes(buf6, 0, 8, 60);
        }
    }

    @Test
    @SpecAssertion("P-271")
    void unexpectedLongMessageIsFetchedWithAGetAndTheSendersEntryUnlinks() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 1);
            long bits = Mpi.match(1, a.id().nid(), 9);
            MemorySegment body = job.pattern(64, 11);

            Mpi.Send s = sender.send(body, b.id(), bits);
            awaitKind(a, sender.eventq, EventKind.SEND_START);
            awaitKind(a, sender.eventq, EventKind.SEND_END);
            awaitUnexpected(receiver, receiver.shortMds.get(0));
            a.expectNoEvent(sender.eventq); // no ack: the long entry disables them

            // MPIreceive finds the message on UnexpQueue (step 4) and fetches its body.
            MemorySegment buf = job.allocate(64);
            Mpi.Receive r = receiver.receive(buf, a.id(), bits, 0);
            assertThat(r.received()).as("a long message is fetched, not copied").isFalse();
            Event end = nonNull(r.matched());
            assertThat(end.type()).isEqualTo(EventKind.PUT_END);
            assertThat(end.rlength()).isEqualTo(64);
            assertThat(end.mlength()).as("the body was truncated away").isZero();
            assertThat(end.matchBits()).isEqualTo(bits | Mpi.LONG_BIT);
            assertThat(end.initiator()).isEqualTo(a.id());
            Event replyStart = awaitKind(b, receiver.eventq, EventKind.REPLY_START);
            Event replyEnd = awaitKind(b, receiver.eventq, EventKind.REPLY_END);
            assertThat(replyEnd.link()).isEqualTo(replyStart.link());
            assertThat(replyEnd.mlength()).isEqualTo(64);
            assertThat(buf.mismatch(body)).isEqualTo(-1L);

            Event getStart = awaitKind(a, sender.eventq, EventKind.GET_START);
            Event getEnd = awaitKind(a, sender.eventq, EventKind.GET_END);
            assertThat(getEnd.link()).isEqualTo(getStart.link());
            assertThat(getEnd.mlength()).isEqualTo(64);
            assertThat(getEnd.initiator()).isEqualTo(b.id());
            MeHandle getMe = nonNull(s.getMe());
            MdHandle getMd = nonNull(s.getMd());
            Event unlink = awaitKind(a, sender.eventq, EventKind.UNLINK);
            assertThat(unlink.mdHandle()).isEqualTo(getMd);
            assertCode(ReturnCode.INV_MD, () -> a.ptl().mdUnlink(getMd));
            assertCode(ReturnCode.INV_ME, () -> a.ptl().meUnlink(getMe));

            // Another get for the same bits now reaches only EndGet, which refuses it.
            MdHandle again = b.ptl().mdBind(b.ni(),
                    MemoryDescriptor.of(job.allocate(64)).withEventQueue(receiver.eventq));
            b.ptl().get(again, a.id(), Mpi.GET_PINDEX, Mpi.AINDEX, bits | Mpi.LONG_BIT, 0);
            a.awaitDrops(1);
            b.expectNoEvent(receiver.eventq);
        }
    }

    @Test
    @SpecAssertion("P-271")
    void expectedLongMessageLandsInThePostedReceiveAndIsAcknowledged() {
        try (TckJob job = TckJob.start(2)) {
            Rank a = job.rank(0);
            Rank b = job.rank(1);
            Mpi sender = new Mpi(a, 1);
            Mpi receiver = new Mpi(b, 1);
            long bits = Mpi.match(1, a.id().nid(), 9);
            MemorySegment buf = job.allocate(64);
            Mpi.Receive r = receiver.receive(buf, a.id(), bits, 0);
            MdHandle posted = nonNull(r.posted());

            MemorySegment body = job.pattern(64, 11);
            Mpi.Send s = sender.send(body, b.id(), bits);
            assertThat(awaitKind(b, receiver.eventq, EventKind.PUT_START).mdHandle()).isEqualTo(posted);
            Event end = awaitKind(b, receiver.eventq, EventKind.PUT_END);
            assertThat(end.mlength()).isEqualTo(64);
            assertThat(end.matchBits()).isEqualTo(bits | Mpi.LONG_BIT);
            assertThat(buf.mismatch(body)).isEqualTo(-1L);
            b.expectNoEvent(receiver.unexpQueue);

            // The sender's threshold-1 MD still gets the ack; the body was never fetched.
            awaitKind(a, sender.eventq, EventKind.SEND_START);
            awaitKind(a, sender.eventq, EventKind.SEND_END);
            Event ack = awaitKind(a, sender.eventq, EventKind.ACK);
            assertThat(ack.mdHandle()).isEqualTo(s.sendMd());
            assertThat(ack.mlength()).isEqualTo(64);
            a.ptl().meUnlink(nonNull(s.getMe())); // the sender retires the unused get entry
            a.expectNoEvent(sender.eventq);
        }
    }

    // ---- helpers ------------------------------------------------------------------------------

    /** Waits until UnexpQueue holds a whole message (its PUT_END), without taking anything off it. */
    private static void awaitUnexpected(Mpi m, MdHandle probe) {
        long deadline = System.nanoTime() + TckTransport.patience().toNanos();
        while (!m.unexpectedPending(probe)) {
            if (System.nanoTime() > deadline) {
                fail("nothing reached UnexpQueue");
            }
            Thread.yield();
        }
        Rank.sleep(TckTransport.quietPeriod()); // let the END follow its START on a slower transport
    }

    private static Seen take(LinkedBlockingQueue<Seen> queue) throws InterruptedException {
        Seen s = queue.poll(TckTransport.patience().toMillis(), TimeUnit.MILLISECONDS);
        if (s == null) {
            return fail("the watcher saw nothing");
        }
        return s;
    }

    private static <T> T nonNull(@Nullable T value) {
        return ReceiveAcceptanceTest.nonNull(value);
    }
}
