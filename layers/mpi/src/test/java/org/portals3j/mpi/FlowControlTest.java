package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.Request;
import mpi.Status;
import org.junit.jupiter.api.Test;
import org.portals3j.mpi.internal.MpiRuntime;

/**
 * Eager messages never overrun the receiver's unexpected space: a sender with far more small messages under way than
 * its credit covers sends the rest by rendezvous, nothing is dropped, and all arrive in order; so with seven senders
 * flooding one receiver over udp.
 */
class FlowControlTest {

    @Test
    void manyUnexpectedSmallMessagesFallBackToRendezvousAndNoneIsDropped() throws Exception {
        System.setProperty("portals3j.mpi.eagerLimit", "1024");
        System.setProperty("portals3j.mpi.creditBytes", "4096");
        int n = 2000;
        try {
            MpiJob.run(2, rank -> {
                MPI.Init(new String[0]);
                if (rank == 0) {
                    Request[] sends = new Request[n];
                    for (int i = 0; i < n; i++) {
                        ByteBuffer b = MPI.newByteBuffer(100);
                        b.putInt(0, i);
                        sends[i] = MPI.COMM_WORLD.iSend(b, 100, MPI.BYTE, 1, 0);
                    }
                    MPI.COMM_WORLD.send(new byte[0], 0, MPI.BYTE, 1, 1); // all the others are under way
                    Request.waitAll(sends);
                } else {
                    MPI.COMM_WORLD.recv(new byte[0], 0, MPI.BYTE, 0, 1);
                    ByteBuffer in = MPI.newByteBuffer(100);
                    for (int i = 0; i < n; i++) {
                        Status s = MPI.COMM_WORLD.recv(in, 100, MPI.BYTE, 0, 0);
                        assertThat(s.getCount(MPI.BYTE)).isEqualTo(100);
                        assertThat(in.getInt(0)).isEqualTo(i);
                    }
                }
                assertThat(MpiJob.present(MpiRuntime.current()).engine().dropCount()).isZero();
                MPI.Finalize();
            });
        } finally {
            System.clearProperty("portals3j.mpi.eagerLimit");
            System.clearProperty("portals3j.mpi.creditBytes");
        }
    }

    /**
     * Seven senders on udp each put 150 messages of 100 bytes under way to rank 0 (several times its 4096-byte
     * credit), which receives them only after every sender's last message (tag 1) has come: nothing is dropped on
     * any rank and each sender's messages arrive in order through ANY_SOURCE.
     */
    @Test
    void sevenSendersFloodingOneReceiverOverUdpDropNothing() throws Exception {
        System.setProperty("portals3j.mpi.eagerLimit", "1024");
        System.setProperty("portals3j.mpi.creditBytes", "4096");
        int ranks = 8;
        int n = 150;
        try {
            MpiJob.run("udp", ranks, rank -> {
                MPI.Init(new String[0]);
                if (rank != 0) {
                    Request[] sends = new Request[n];
                    for (int i = 0; i < n; i++) {
                        ByteBuffer b = MPI.newByteBuffer(100);
                        b.putInt(0, i);
                        sends[i] = MPI.COMM_WORLD.iSend(b, 100, MPI.BYTE, 0, 0);
                    }
                    MPI.COMM_WORLD.send(new byte[0], 0, MPI.BYTE, 0, 1);
                    Request.waitAll(sends);
                } else {
                    for (int r = 1; r < ranks; r++) {
                        MPI.COMM_WORLD.recv(new byte[0], 0, MPI.BYTE, r, 1);
                    }
                    int[] next = new int[ranks];
                    ByteBuffer in = MPI.newByteBuffer(100);
                    for (int i = 0; i < n * (ranks - 1); i++) {
                        Status s = MPI.COMM_WORLD.recv(in, 100, MPI.BYTE, MPI.ANY_SOURCE, 0);
                        assertThat(in.getInt(0)).as("the next message of rank %d", s.getSource())
                                .isEqualTo(next[s.getSource()]++);
                    }
                    for (int r = 1; r < ranks; r++) {
                        assertThat(next[r]).isEqualTo(n);
                    }
                }
                MPI.COMM_WORLD.barrier();
                assertThat(MpiJob.present(MpiRuntime.current()).engine().dropCount()).isZero();
                MPI.Finalize();
            });
        } finally {
            System.clearProperty("portals3j.mpi.eagerLimit");
            System.clearProperty("portals3j.mpi.creditBytes");
        }
    }

    @Test
    void twoRanksSendingShortMessagesToEachOtherBeforeReceivingDoNotDeadlock() throws Exception {
        MpiJob.run(2, rank -> {
            MPI.Init(new String[0]);
            int other = 1 - rank;
            for (int round = 0; round < 200; round++) {
                MPI.COMM_WORLD.send(new int[] {round, rank}, 2, MPI.INT, other, 3);
                int[] in = new int[2];
                MPI.COMM_WORLD.recv(in, 2, MPI.INT, other, 3);
                assertThat(in).containsExactly(round, other);
            }
            MPI.Finalize();
        });
    }
}
