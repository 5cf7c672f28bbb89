package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.LongBuffer;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Point-to-point on eight ranks, on inmem and on udp (each rank its own socket): every pair of ranks exchanges a
 * message below and one above the eager limit with {@code sendRecv}; a ring of nonblocking sends and receives goes
 * round twice; every rank sends synchronously to rank 0, which receives with {@code ANY_SOURCE} and must see each
 * rank once. Eight rank threads (and eight transport threads on udp) share two cores here: the job's bound is
 * {@link MpiJob#boundSeconds}.
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
