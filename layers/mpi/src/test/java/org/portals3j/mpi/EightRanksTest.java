package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.MPI;
import mpi.Message;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Point-to-point on eight ranks, on inmem and on udp (each rank its own socket): every pair of ranks exchanges a
 * message below and one above the eager limit with {@code sendRecv}, then a strided derived type short and long; a
 * ring of nonblocking sends and receives goes round twice; every rank sends synchronously to rank 0, which receives
 * with {@code ANY_SOURCE} and must see each rank once; 28 requests per rank outstanding at once, completed through
 * waitAny, waitSome and testAll; probe, iProbe, mProbe and imProbe of short and long messages; persistent requests
 * restarted around the ring; buffered sends to every peer. Eight rank threads (and eight transport threads on udp)
 * share two cores here: the job's bound is {@link MpiJob#boundSeconds}.
 */
class EightRanksTest {
    private static final int RANKS = 8;
    private static final int SHORT = 16;
    private static final int LONG = 40_000;

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void everyPairExchangesAndRingsAndWildcardsCompleteOnEightRanks(String transport) throws Exception {
        MpiJob.run(transport, RANKS, rank -> {
            MPI.Init(new String[0]);
            assertThat(MPI.COMM_WORLD.getSize()).isEqualTo(RANKS);
            exchangeWithEveryPeer(rank);
            ring(rank);
            gatherWithAnySource(rank);
            derivedWithEveryPeer(rank);
            manyOutstanding(rank);
            probes(rank);
            persistentRing(rank);
            bufferedToEveryPeer(rank);
            MPI.Finalize();
        });
    }

    /** Rounds of pairs (rank XOR round): each pair swaps a short and a long message with sendRecv. */
    private static void exchangeWithEveryPeer(int rank) throws Exception {
        for (int round = 1; round < RANKS; round++) {
            int peer = rank ^ round;
            for (int n : new int[] {SHORT, LONG}) {
                int[] out = new int[n];
                for (int i = 0; i < n; i++) {
                    out[i] = rank * 1_000_003 + n + i;
                }
                int[] in = new int[n];
                Status s = MPI.COMM_WORLD.sendRecv(out, n, MPI.INT, peer, round, in, n, MPI.INT, peer, round);
                assertThat(s.getSource()).isEqualTo(peer);
                assertThat(s.getCount(MPI.INT)).isEqualTo(n);
                for (int i = 0; i < n; i++) {
                    if (in[i] != peer * 1_000_003 + n + i) {
                        throw new AssertionError("rank " + rank + " got a corrupt message of " + n + " ints from "
                                + peer + " at int " + i);
                    }
                }
            }
        }
    }

    /** A token goes round the ring twice, each rank adding its rank; nonblocking receive posted first. */
    private static void ring(int rank) throws Exception {
        int next = (rank + 1) % RANKS;
        int previous = (rank + RANKS - 1) % RANKS;
        LongBuffer token = MPI.newLongBuffer(1);
        LongBuffer in = MPI.newLongBuffer(1);
        for (int lap = 0; lap < 2; lap++) {
            if (rank == 0) {
                Request send = MPI.COMM_WORLD.iSend(token, 1, MPI.LONG, next, 7);
                Request recv = MPI.COMM_WORLD.iRecv(in, 1, MPI.LONG, previous, 7);
                Request.waitAll(new Request[] {send, recv});
                token.put(0, in.get(0));
            } else {
                MPI.COMM_WORLD.iRecv(in, 1, MPI.LONG, previous, 7).waitFor();
                token.put(0, in.get(0) + rank);
                MPI.COMM_WORLD.iSend(token, 1, MPI.LONG, next, 7).waitFor();
            }
        }
        if (rank == 0) {
            assertThat(token.get(0)).isEqualTo(2L * RANKS * (RANKS - 1) / 2);
        }
    }

    /**
     * Rounds of pairs as above with a strided type ({@link StridedInts#ends}), 3 items and 10 000 (80 000 bytes of
     * data, above the eager limit): every item arrives, every gap of the receive buffer as it was.
     */
    private static void derivedWithEveryPeer(int rank) throws Exception {
        Datatype t = StridedInts.ends();
        for (int round = 1; round < RANKS; round++) {
            int peer = rank ^ round;
            for (int items : new int[] {3, 10_000}) {
                int[] in = new int[4 * items];
                Arrays.fill(in, StridedInts.GAP);
                Status s = MPI.COMM_WORLD.sendRecv(StridedInts.strided(rank, items), items, t, peer, 60, in, items, t,
                        peer, 60);
                assertThat(s.getCount(t)).isEqualTo(items);
                if (!Arrays.equals(in, StridedInts.strided(peer, items))) {
                    throw new AssertionError("rank " + rank + " got a corrupt strided message of " + items
                            + " items from " + peer);
                }
            }
        }
        t.free();
    }

    /** The ints rank {@code from} sends in a message of {@code n}: int i is {@code from * 1_000_003 + n + i}. */
    private static IntBuffer message(int from, int n) {
        IntBuffer b = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            b.put(i, from * 1_000_003 + n + i);
        }
        return b;
    }

    private static void check(int rank, IntBuffer got, int from, int n) {
        for (int i = 0; i < n; i++) {
            if (got.get(i) != from * 1_000_003 + n + i) {
                throw new AssertionError("rank " + rank + " got a corrupt message of " + n + " ints from " + from
                        + " at int " + i);
            }
        }
    }

    /**
     * A short and a long message to and from every peer, all 28 requests outstanding at once: the receives completed
     * first through waitAny (seven), then waitSome, each exactly once and from its peer; the sends through testAll.
     */
    private static void manyOutstanding(int rank) throws Exception {
        int peers = RANKS - 1;
        Request[] recvs = new Request[2 * peers];
        Request[] sends = new Request[2 * peers];
        IntBuffer[] in = new IntBuffer[2 * peers];
        int[] from = new int[2 * peers];
        int[] sizes = new int[2 * peers];
        for (int i = 0; i < peers; i++) {
            int peer = (rank + 1 + i) % RANKS;
            for (int k = 2 * i; k < 2 * i + 2; k++) {
                int n = k % 2 == 0 ? SHORT : LONG;
                from[k] = peer;
                sizes[k] = n;
                in[k] = MPI.newIntBuffer(n);
                recvs[k] = MPI.COMM_WORLD.iRecv(in[k], n, MPI.INT, peer, 20 + k % 2);
            }
        }
        for (int i = 0; i < peers; i++) {
            int peer = (rank + RANKS - 1 - i) % RANKS; // in the opposite order of the receives
            sends[2 * i] = MPI.COMM_WORLD.iSend(message(rank, LONG), LONG, MPI.INT, peer, 21);
            sends[2 * i + 1] = MPI.COMM_WORLD.iSend(message(rank, SHORT), SHORT, MPI.INT, peer, 20);
        }
        boolean[] done = new boolean[recvs.length];
        int completed = 0;
        for (; completed < peers; completed++) {
            Status s = Request.waitAnyStatus(recvs);
            completed(rank, s, done, from, sizes, in);
        }
        Status[] some;
        while ((some = Request.waitSomeStatus(recvs)) != null) {
            assertThat(some).isNotEmpty();
            for (Status s : some) {
                completed(rank, s, done, from, sizes, in);
                completed++;
            }
        }
        assertThat(completed).as("every receive completed once").isEqualTo(recvs.length);
        assertThat(Request.waitAny(recvs)).isEqualTo(MPI.UNDEFINED);
        while (!Request.testAll(sends)) {
            Thread.onSpinWait();
        }
    }

    private static void completed(int rank, Status s, boolean[] done, int[] from, int[] sizes, IntBuffer[] in)
            throws Exception {
        int k = s.getIndex();
        assertThat(done[k]).as("receive %d reported twice", k).isFalse();
        done[k] = true;
        assertThat(s.getSource()).isEqualTo(from[k]);
        assertThat(s.getCount(MPI.INT)).isEqualTo(sizes[k]);
        check(rank, in[k], from[k], sizes[k]);
    }

    /**
     * Each rank sends four messages to the next (tags 30 and 32 short, 31 and 33 long, nonblocking): probe with
     * ANY_SOURCE and iProbe report the source, tag and count of tags 31 and 30 before the receives take them; mProbe
     * and imProbe claim tags 33 and 32, received through their messages.
     */
    private static void probes(int rank) throws Exception {
        int next = (rank + 1) % RANKS;
        int previous = (rank + RANKS - 1) % RANKS;
        Request[] sends = new Request[4];
        for (int k = 0; k < 4; k++) {
            int n = k % 2 == 0 ? SHORT : LONG;
            sends[k] = MPI.COMM_WORLD.iSend(message(rank, n), n, MPI.INT, next, 30 + k);
        }
        Status s = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, 31);
        assertThat(new int[] {s.getSource(), s.getTag(), s.getCount(MPI.INT)}).containsExactly(previous, 31, LONG);
        Status q;
        while ((q = MPI.COMM_WORLD.iProbe(previous, MPI.ANY_TAG)) == null || q.getTag() != 30) {
            Thread.onSpinWait();
        }
        assertThat(new int[] {q.getSource(), q.getCount(MPI.INT)}).containsExactly(previous, SHORT);
        IntBuffer shortOne = MPI.newIntBuffer(SHORT);
        IntBuffer longOne = MPI.newIntBuffer(LONG);
        MPI.COMM_WORLD.recv(shortOne, SHORT, MPI.INT, MPI.ANY_SOURCE, 30);
        MPI.COMM_WORLD.recv(longOne, LONG, MPI.INT, previous, 31);
        check(rank, shortOne, previous, SHORT);
        check(rank, longOne, previous, LONG);

        Message m = new Message();
        Status claimed = m.mProbe(MPI.ANY_SOURCE, 33, MPI.COMM_WORLD);
        assertThat(new int[] {claimed.getSource(), claimed.getCount(MPI.INT)}).containsExactly(previous, LONG);
        assertThat(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 33)).as("a claimed message is no longer probed").isNull();
        IntBuffer longTwo = MPI.newIntBuffer(LONG);
        assertThat(m.mRecv(longTwo, LONG, MPI.INT).getTag()).isEqualTo(33);
        check(rank, longTwo, previous, LONG);
        Message m2 = new Message();
        Status early;
        while ((early = m2.imProbe(previous, 32, MPI.COMM_WORLD)) == null) {
            Thread.onSpinWait();
        }
        assertThat(early.getCount(MPI.INT)).isEqualTo(SHORT);
        IntBuffer shortTwo = MPI.newIntBuffer(SHORT);
        m2.imRecv(shortTwo, SHORT, MPI.INT).waitFor();
        check(rank, shortTwo, previous, SHORT);
        Request.waitAll(sends);
    }

    /** A persistent send to the next rank and receive from the previous, started together three times. */
    private static void persistentRing(int rank) throws Exception {
        int next = (rank + 1) % RANKS;
        int previous = (rank + RANKS - 1) % RANKS;
        IntBuffer out = MPI.newIntBuffer(LONG);
        IntBuffer in = MPI.newIntBuffer(LONG);
        Prequest[] both = {MPI.COMM_WORLD.recvInit(in, LONG, MPI.INT, previous, 40),
            MPI.COMM_WORLD.sendInit(out, LONG, MPI.INT, next, 40)};
        for (int round = 0; round < 3; round++) {
            out.put(0, 100 * rank + round);
            out.put(LONG - 1, -round);
            Prequest.startAll(both);
            Request.waitAll(both);
            assertThat(new int[] {in.get(0), in.get(LONG - 1)}).containsExactly(100 * previous + round, -round);
        }
        for (Prequest p : both) {
            p.free();
        }
    }

    /** A long buffered send to every peer, received in any order; detach waits until every copy has gone. */
    private static void bufferedToEveryPeer(int rank) throws Exception {
        byte[] buffer = new byte[(RANKS - 1) * (4 * LONG + MPI.BSEND_OVERHEAD)];
        MPI.attachBuffer(buffer);
        IntBuffer data = message(rank, LONG);
        int[] array = new int[LONG];
        data.get(0, array);
        for (int i = 1; i < RANKS; i++) {
            MPI.COMM_WORLD.bSend(array, LONG, MPI.INT, (rank + i) % RANKS, 50);
        }
        boolean[] seen = new boolean[RANKS];
        for (int i = 1; i < RANKS; i++) {
            IntBuffer got = MPI.newIntBuffer(LONG);
            Status s = MPI.COMM_WORLD.recv(got, LONG, MPI.INT, MPI.ANY_SOURCE, 50);
            assertThat(seen[s.getSource()]).isFalse();
            seen[s.getSource()] = true;
            check(rank, got, s.getSource(), LONG);
        }
        assertThat(MPI.detachBuffer()).isSameAs(buffer);
    }

    /** Every other rank sends its rank synchronously to 0; rank 0 receives from ANY_SOURCE, once each. */
    private static void gatherWithAnySource(int rank) throws Exception {
        if (rank == 0) {
            boolean[] seen = new boolean[RANKS];
            for (int i = 1; i < RANKS; i++) {
                int[] in = new int[1];
                Status s = MPI.COMM_WORLD.recv(in, 1, MPI.INT, MPI.ANY_SOURCE, 9);
                assertThat(in[0]).isEqualTo(s.getSource());
                assertThat(seen[in[0]]).as("rank %d's message received twice", in[0]).isFalse();
                seen[in[0]] = true;
            }
        } else {
            MPI.COMM_WORLD.sSend(new int[] {rank}, 1, MPI.INT, 0, 9);
        }
    }
}
