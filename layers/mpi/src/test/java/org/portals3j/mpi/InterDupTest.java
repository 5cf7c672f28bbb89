package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.IntBuffer;
import mpi.Comm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code Intercomm.iDup} on 2 to 8 ranks, inmem and udp: the agreement across both groups goes on in the background
 * while the program runs collectives on the parent (blocking and nonblocking) and a second iDup; each new
 * intercommunicator has the parent's groups in a context of its own, and a blocking dup after them works too.
 */
class InterDupTest {

    private static Intercomm evenOdd(int rank) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        Intracomm local = world.split(rank % 2, rank);
        return world.createIntercomm(local, 0, rank % 2 == 0 ? 1 : 0, 79);
    }

    @ParameterizedTest
    @CsvSource({"inmem,2", "inmem,3", "inmem,5", "inmem,8", "udp,3", "udp,4"})
    void iDupAgreesInTheBackgroundBesideCollectives(String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = evenOdd(rank);
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
}
