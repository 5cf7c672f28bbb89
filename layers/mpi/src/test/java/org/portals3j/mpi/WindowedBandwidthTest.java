package org.portals3j.mpi;

import java.nio.ByteBuffer;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OSU bandwidth pattern: rank 0 sends windows of 64 nonblocking sends, rank 1 posts 64 nonblocking receives and
 * answers each window with an ack; every window completes. Messages of a window often arrive before their receives
 * are posted, and on inmem a receive often takes one between its PUT_START and its PUT_END: no later receive may
 * take that message again (it did, and the first receive then waited for ever).
 */
class WindowedBandwidthTest {
    private static final int WINDOW = 64;

    @ParameterizedTest
    @ValueSource(strings = {"inmem", "udp"})
    void everyWindowOfSmallMessagesCompletes(String transport) throws Exception {
        MpiJob.run(transport, 2, rank -> {
            MPI.Init(new String[0]);
            ByteBuffer buf = MPI.newByteBuffer(8);
            ByteBuffer ack = MPI.newByteBuffer(4);
            Request[] window = new Request[WINDOW];
            for (int size = 1; size <= 8; size *= 2) {
                MPI.COMM_WORLD.barrier();
                for (int i = 0; i < 60; i++) {
                    if (rank == 0) {
                        for (int m = 0; m < WINDOW; m++) {
                            window[m] = MPI.COMM_WORLD.iSend(buf, size, MPI.BYTE, 1, 1);
                        }
                        Request.waitAll(window);
                        MPI.COMM_WORLD.recv(ack, 4, MPI.BYTE, 1, 2);
                    } else {
                        for (int m = 0; m < WINDOW; m++) {
                            window[m] = MPI.COMM_WORLD.iRecv(buf, size, MPI.BYTE, 0, 1);
                        }
                        Request.waitAll(window);
                        MPI.COMM_WORLD.send(ack, 4, MPI.BYTE, 0, 2);
                    }
                }
            }
            MPI.Finalize();
        });
    }
}
