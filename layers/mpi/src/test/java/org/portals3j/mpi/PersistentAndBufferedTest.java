package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Persistent requests in every send mode and for receives (started many times, inactive between rounds, reused
 * until freed), and buffered-mode sends through an attached buffer, on 1 to 8 ranks over inmem and on udp; wrong
 * use: starting an active request, a buffered message that does not fit, no buffer attached.
 */
class PersistentAndBufferedTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void persistentRequestsInEveryModeAroundARing(int size) throws Exception {
        MpiJob.run(size, rank -> ring(rank, size));
    }

    @Test
    void persistentRequestsOverUdp() throws Exception {
        MpiJob.run("udp", 3, rank -> ring(rank, 3));
    }

    private static void ring(int rank, int size) throws Exception {
        MPI.Init(new String[0]);
        Intracomm world = MPI.COMM_WORLD;
        int right = (rank + 1) % size;
        int left = (rank - 1 + size) % size;
        int n = 10_000; // above the eager limit: rendezvous
        IntBuffer out = MPI.newIntBuffer(n);
        IntBuffer in = IntBuffer.wrap(new int[n]); // a heap buffer: accepted
        MPI.attachBuffer(new byte[4 * (n + 8) + 4 * MPI.BSEND_OVERHEAD]);
        Prequest[] sends = {
            world.sendInit(out, n, MPI.INT, right, 1),
            world.sSendInit(out, n, MPI.INT, right, 2),
            world.rSendInit(out, 4, MPI.INT, right, 3),
            world.bSendInit(out, n, MPI.INT, right, 4),
        };
        Prequest recv = world.recvInit(in, n, MPI.INT, left, MPI.ANY_TAG);
        assertThat(recv.isNull()).isFalse();
        Status empty = recv.waitStatus(); // inactive: at once, MPI's empty status
        assertThat(empty.getSource()).isEqualTo(MPI.ANY_SOURCE);
        assertThat(empty.getTag()).isEqualTo(MPI.ANY_TAG);
        assertThat(empty.getCount(MPI.INT)).isEqualTo(0);
        assertThat(recv.test()).isTrue();
        for (int round = 0; round < 3; round++) {
            for (int mode = 0; mode < sends.length; mode++) {
                for (int i = 0; i < n; i++) {
                    out.put(i, rank * 1000 + round * 10 + mode + i);
                }
                recv.start();
                sends[mode].start();
                Request[] both = {recv, sends[mode]};
                Status[] statuses = Request.waitAllStatus(both);
                assertThat(recv.isNull()).isFalse();
                assertThat(sends[mode].isNull()).isFalse();
                assertThat(statuses[0].getSource()).isEqualTo(left);
                assertThat(statuses[0].getTag()).isEqualTo(mode + 1);
                int expectedCount = mode == 2 ? 4 : n;
                assertThat(statuses[0].getCount(MPI.INT)).isEqualTo(expectedCount);
                assertThat(in.get(0)).isEqualTo(left * 1000 + round * 10 + mode);
                assertThat(in.get(expectedCount - 1)).isEqualTo(left * 1000 + round * 10 + mode + expectedCount - 1);
                world.barrier(); // nobody rewrites `out` while a rendezvous send may still read it
            }
        }
        // startAll, completed by waitAny and then an inactive set
        Prequest[] pair = {recv, sends[0]};
        Prequest.startAll(pair);
        int first = Request.waitAny(pair);
        assertThat(first).isIn(0, 1);
        pair[1 - first].waitFor();
        assertThat(Request.waitAny(pair)).isEqualTo(MPI.UNDEFINED);
        for (Prequest p : sends) {
            p.free();
            assertThat(p.isNull()).isTrue();
        }
        recv.free();
        assertThat(recv.isNull()).isTrue();
        MPI.detachBuffer();
        MPI.Finalize();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void bufferedSendsReturnAtOnceAndDetachWaitsForThem(int size) throws Exception {
        MpiJob.run(size, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            int right = (rank + 1) % size;
            int left = (rank - 1 + size) % size;
            int messages = 6;
            int n = 5000; // above the eager limit: the sends wait for their receives, the bSends do not
            byte[] buffer = new byte[messages * (4 * n + MPI.BSEND_OVERHEAD)];
            MPI.attachBuffer(buffer);
            int[] data = new int[n];
            for (int k = 0; k < messages; k++) {
                data[0] = rank * 100 + k;
                data[n - 1] = -k;
                if (k % 2 == 0) {
                    world.bSend(data, n, MPI.INT, right, k);
                } else {
                    assertThat(world.ibSend(IntBuffer.wrap(data), n, MPI.INT, right, k).test()).isTrue();
                }
            }
            data[0] = -1; // the copies went out, not this array
            for (int k = 0; k < messages; k++) {
                int[] got = new int[n];
                world.recv(got, n, MPI.INT, left, k);
                assertThat(got[0]).isEqualTo(left * 100 + k);
                assertThat(got[n - 1]).isEqualTo(-k);
            }
            assertThat(MPI.detachBuffer()).isSameAs(buffer);
            MPI.Finalize();
        });
    }

    @Test
    void wrongUseGivesErrRequestAndErrBuffer() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            int other = 1 - rank;
            IntBuffer buf = MPI.newIntBuffer(8);
            // no buffer attached, then one too small: nothing is sent
            assertThat(MpiErrors.errorClassOf(() -> world.bSend(new int[1], 1, MPI.INT, other, 9)))
                    .isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(MPI::detachBuffer)).isEqualTo(MPI.ERR_BUFFER);
            byte[] small = new byte[MPI.BSEND_OVERHEAD + 16];
            MPI.attachBuffer(small);
            assertThat(MpiErrors.errorClassOf(() -> MPI.attachBuffer(new byte[8]))).isEqualTo(MPI.ERR_BUFFER);
            assertThat(MpiErrors.errorClassOf(() -> world.bSend(new int[5], 5, MPI.INT, other, 9)))
                    .isEqualTo(MPI.ERR_BUFFER);
            world.bSend(new int[] {1, 2, 3, 4}, 4, MPI.INT, other, 9); // fits exactly
            Prequest full = world.bSendInit(buf, 4, MPI.INT, other, 9);
            // the buffer is full until the first one is received; then the block is free again
            int[] got = new int[4];
            world.recv(got, 4, MPI.INT, other, 9);
            assertThat(got).containsExactly(1, 2, 3, 4);
            world.barrier();
            full.start();
            full.waitFor();
            world.recv(got, 4, MPI.INT, other, 9);
            assertThat(MPI.detachBuffer()).isSameAs(small);
            assertThat(MpiErrors.errorClassOf(full::start)).isEqualTo(MPI.ERR_BUFFER);
            full.free();
            // starting an active request; starting a freed one
            Prequest recv = world.recvInit(buf, 8, MPI.INT, other, 3);
            recv.start();
            assertThat(MpiErrors.errorClassOf(recv::start)).isEqualTo(MPI.ERR_REQUEST);
            world.send(new int[] {5}, 1, MPI.INT, other, 3);
            assertThat(recv.waitStatus().getCount(MPI.INT)).isEqualTo(1);
            recv.free();
            assertThat(MpiErrors.errorClassOf(recv::start)).isEqualTo(MPI.ERR_REQUEST);
            // the arguments are checked when the request is made
            assertThat(MpiErrors.errorClassOf(() -> world.sendInit(buf, 1, MPI.INT, 5, 0))).isEqualTo(MPI.ERR_RANK);
            assertThat(MpiErrors.errorClassOf(() -> world.sendInit(buf, 1, MPI.INT, 0, -3)))
                    .isEqualTo(MPI.ERR_TAG);
            assertThat(MpiErrors.errorClassOf(() -> world.recvInit(buf, -1, MPI.INT, 0, 0)))
                    .isEqualTo(MPI.ERR_COUNT);
            assertThat(MpiErrors.errorClassOf(() -> world.sSendInit(buf, 9, MPI.INT, 0, 0)))
                    .isEqualTo(MPI.ERR_BUFFER);
            MPI.Finalize();
        });
    }
}
