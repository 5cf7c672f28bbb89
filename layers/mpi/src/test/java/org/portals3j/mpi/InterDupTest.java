package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.Request;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code Intercomm.iDup} on 2 to 8 ranks, inmem and udp: the agreement across both groups goes on in the background
 * while the program runs collectives on the parent (blocking and nonblocking) and a second iDup; each new
 * intercommunicator has the parent's groups in a context of its own, and a blocking dup after them works too; a
 * merge beside a background iDup of the same intercommunicator takes a context of its own.
 */
class InterDupTest {

    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,5", "inmem,8", "udp,3", "udp,4"})
    void iDupAgreesInTheBackgroundBesideCollectives(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 79);
            int remote = inter.getRemoteSize();
            Intercomm first = inter.iDup();
            IntBuffer sum = MPI.newIntBuffer(1);
            Request reduce = inter.iAllReduce(MPI.newIntBuffer(1).put(0, 1), sum, 1, MPI.INT, MPI.SUM);
            Intercomm second = inter.iDup();
            int[] blocking = new int[1];
            inter.allReduce(new int[] {2}, blocking, 1, MPI.INT, MPI.SUM);
            Request.waitAll(new Request[] {MpiJob.present(second.getRequest()), reduce,
                MpiJob.present(first.getRequest())});
            assertThat(sum.get(0)).isEqualTo(remote);
            assertThat(blocking[0]).isEqualTo(2 * remote);
            for (Intercomm copy : new Intercomm[] {first, second, inter.dup()}) {
                assertThat(copy.isInter()).isTrue();
                assertThat(copy.getRemoteSize()).isEqualTo(remote);
                assertThat(copy.getRank()).isEqualTo(rank / 2);
                assertThat(Comm.compare(copy, inter)).isEqualTo(MPI.CONGRUENT);
            }
            // each copy is a context of its own: the same tag on all three arrives on each
            if (rank / 2 == 0) {
                Intercomm[] all = {inter, first, second};
                for (int i = 0; i < all.length; i++) {
                    all[i].send(new int[] {10 * rank + i}, 1, MPI.INT, 0, 5);
                }
                for (int i = all.length - 1; i >= 0; i--) {
                    int[] got = new int[1];
                    all[i].recv(got, 1, MPI.INT, 0, 5);
                    assertThat(got[0]).isEqualTo(10 * (1 - rank) + i);
                }
            }
            int[] onCopy = new int[1];
            second.allReduce(new int[] {rank}, onCopy, 1, MPI.INT, MPI.MAX);
            assertThat(onCopy[0]).isEqualTo(2 * (remote - 1) + 1 - rank % 2);
            MPI.Finalize();
        });
    }

    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,4", "udp,3"})
    void mergeBesideABackgroundIDupTakesAContextOfItsOwn(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 79);
            Intercomm copy = inter.iDup();
            Intracomm evenFirst = inter.merge(rank % 2 == 1);
            Intercomm second = inter.iDup();
            Intracomm oddFirst = inter.merge(rank % 2 == 0);
            Request.waitAll(new Request[] {MpiJob.present(copy.getRequest()), MpiJob.present(second.getRequest())});
            int evens = (size + 1) / 2;
            assertThat(evenFirst.getSize()).isEqualTo(size);
            assertThat(evenFirst.getRank()).isEqualTo(rank % 2 == 0 ? rank / 2 : evens + rank / 2);
            assertThat(oddFirst.getRank()).isEqualTo(rank % 2 == 1 ? rank / 2 : size / 2 + rank / 2);
            int[] sum = new int[1];
            evenFirst.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(size * (size - 1) / 2);
            oddFirst.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
            assertThat(sum[0]).isEqualTo(size);
            // the same tag on each communicator, received from any source in the reverse order: each its own
            Intracomm[] merged = {evenFirst, oddFirst};
            Intercomm[] copies = {inter, copy, second};
            @Nullable Request[] sends = new @Nullable Request[merged.length + copies.length];
            for (int i = 0; i < merged.length; i++) {
                sends[i] = merged[i].iSend(MPI.newIntBuffer(1).put(0, i), 1, MPI.INT, merged[i].getRank(), 5);
            }
            boolean leader = rank / 2 == 0;
            for (int i = 0; i < copies.length; i++) {
                sends[merged.length + i] = leader
                        ? copies[i].iSend(MPI.newIntBuffer(1).put(0, 10 + i), 1, MPI.INT, 0, 5) : null;
            }
            if (leader) {
                for (int i = copies.length - 1; i >= 0; i--) {
                    int[] got = new int[1];
                    copies[i].recv(got, 1, MPI.INT, MPI.ANY_SOURCE, 5);
                    assertThat(got[0]).isEqualTo(10 + i);
                }
            }
            for (int i = merged.length - 1; i >= 0; i--) {
                int[] got = new int[1];
                merged[i].recv(got, 1, MPI.INT, MPI.ANY_SOURCE, 5);
                assertThat(got[0]).isEqualTo(i);
            }
            Request.waitAll(sends);
            MPI.Finalize();
        });
    }
}
