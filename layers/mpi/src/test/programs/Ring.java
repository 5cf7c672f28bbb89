import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: a token goes round the
 * ring of ranks until rank 0 has counted it down to zero, then every rank swaps its rank with both neighbours by
 * nonblocking calls. A wrong value aborts the job.
 */
public class Ring {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int next = (me + 1) % size;
        int prev = (me + size - 1) % size;
        int[] token = new int[1];
        if (me == 0) {
            token[0] = 5;
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, 201);
        }
        while (true) {
            Status st = MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, 201);
            if (st.getTag() != 201 || st.getSource() != prev) {
                MPI.COMM_WORLD.abort(2);
            }
            if (me == 0) {
                token[0]--;
            }
            MPI.COMM_WORLD.send(token, 1, MPI.INT, next, 201);
            if (token[0] == 0) {
                break;
            }
        }
        if (me == 0) {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, prev, 201); // the zero, back from the last rank
        }
        IntBuffer fromPrev = MPI.newIntBuffer(1);
        IntBuffer fromNext = MPI.newIntBuffer(1);
        IntBuffer mine = MPI.newIntBuffer(1).put(0, me);
        Request[] requests = {
            MPI.COMM_WORLD.iRecv(fromPrev, 1, MPI.INT, prev, 7),
            MPI.COMM_WORLD.iRecv(fromNext, 1, MPI.INT, next, 8),
            MPI.COMM_WORLD.iSend(mine, 1, MPI.INT, next, 7),
            MPI.COMM_WORLD.iSend(mine, 1, MPI.INT, prev, 8),
        };
        Status[] statuses = Request.waitAllStatus(requests);
        if (fromPrev.get(0) != prev || fromNext.get(0) != next || statuses[0].getCount(MPI.INT) != 1) {
            MPI.COMM_WORLD.abort(3);
        }
        System.out.println("rank " + me + " of " + size + " on " + MPI.getProcessorName() + ": ring done");
        MPI.Finalize();
    }
}
