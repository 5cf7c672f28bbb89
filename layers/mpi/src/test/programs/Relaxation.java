import java.nio.DoubleBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: Jacobi relaxation of
 * a 1-D heat equation split over the ranks. The halo exchange is set up once with persistent requests and started
 * every iteration; the global change of each iteration is summed by a nonblocking allReduce that overlaps the next
 * iteration's halo exchange. A result that is not the exact steady state aborts the job.
 */
public class Relaxation {
    private static final int LOCAL = 4;
    private static final int ITERATIONS = 400;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int left = me == 0 ? MPI.PROC_NULL : me - 1;
        int right = me == size - 1 ? MPI.PROC_NULL : me + 1;
        // u[0] and u[LOCAL + 1] are the halo cells; the ends of the whole rod are held at 0 and 1
        DoubleBuffer u = MPI.newDoubleBuffer(LOCAL + 2);
        DoubleBuffer sendLeft = MPI.newDoubleBuffer(1);
        DoubleBuffer sendRight = MPI.newDoubleBuffer(1);
        DoubleBuffer recvLeft = MPI.newDoubleBuffer(1);
        DoubleBuffer recvRight = MPI.newDoubleBuffer(1);
        if (me == size - 1) {
            u.put(LOCAL + 1, 1.0);
        }
        Prequest[] halo = {
            MPI.COMM_WORLD.recvInit(recvLeft, 1, MPI.DOUBLE, left, 1),
            MPI.COMM_WORLD.recvInit(recvRight, 1, MPI.DOUBLE, right, 2),
            MPI.COMM_WORLD.sendInit(sendLeft, 1, MPI.DOUBLE, left, 2),
            MPI.COMM_WORLD.sendInit(sendRight, 1, MPI.DOUBLE, right, 1),
        };
        DoubleBuffer change = MPI.newDoubleBuffer(1);
        DoubleBuffer total = MPI.newDoubleBuffer(1);
        Request pending = null;
        double[] next = new double[LOCAL + 2];
        for (int it = 0; it < ITERATIONS; it++) {
            sendLeft.put(0, u.get(1));
            sendRight.put(0, u.get(LOCAL));
            Prequest.startAll(halo);
            Request.waitAll(halo);
            if (left != MPI.PROC_NULL) {
                u.put(0, recvLeft.get(0));
            }
            if (right != MPI.PROC_NULL) {
                u.put(LOCAL + 1, recvRight.get(0));
            }
            if (pending != null) {
                pending.waitFor();
            }
            double delta = 0;
            for (int i = 1; i <= LOCAL; i++) {
                next[i] = 0.5 * (u.get(i - 1) + u.get(i + 1));
                delta += Math.abs(next[i] - u.get(i));
            }
            for (int i = 1; i <= LOCAL; i++) {
                u.put(i, next[i]);
            }
            change.put(0, delta);
            pending = MPI.COMM_WORLD.iAllReduce(change, total, 1, MPI.DOUBLE, MPI.SUM);
        }
        pending.waitFor();
        for (Prequest p : halo) {
            p.free();
        }
        // the steady state is linear from 0 to 1 over the LOCAL * size cells between the two fixed ends
        int cells = LOCAL * size;
        double worst = 0;
        for (int i = 1; i <= LOCAL; i++) {
            double exact = (double) (me * LOCAL + i) / (cells + 1);
            worst = Math.max(worst, Math.abs(u.get(i) - exact));
        }
        if (worst > 1e-3 || total.get(0) > 1e-3 || !halo[0].isNull()) {
            System.out.println("rank " + me + ": error " + worst + ", last change " + total.get(0));
            MPI.COMM_WORLD.abort(4);
        }
        System.out.println("rank " + me + " of " + size + ": relaxed, error " + worst);
        MPI.Finalize();
    }
}
