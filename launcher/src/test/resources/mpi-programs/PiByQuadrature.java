import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * An MPI program as one writes it for Open MPI's Java bindings: pi by the midpoint rule over [0, 1] of 4 / (1 + x^2),
 * the intervals dealt round-robin to the ranks, the partial sums reduced to rank 0 and the result broadcast; then a
 * token goes round the ring of ranks. Compiled against the MPI layer, run by portals run without it on -cp.
 */
public class PiByQuadrature {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] intervals = {args.length > 0 ? Integer.parseInt(args[0]) : 0};
        MPI.COMM_WORLD.bcast(intervals, 1, MPI.INT, 0);
        double width = 1.0 / intervals[0];
        double[] partial = {0};
        for (int i = rank; i < intervals[0]; i += size) {
            double x = width * (i + 0.5);
            partial[0] += 4.0 / (1.0 + x * x);
        }
        partial[0] *= width;
        double[] pi = new double[1];
        MPI.COMM_WORLD.reduce(partial, pi, 1, MPI.DOUBLE, MPI.SUM, 0);
        MPI.COMM_WORLD.bcast(pi, 1, MPI.DOUBLE, 0);
        if (Math.abs(pi[0] - Math.PI) > 1e-6) {
            System.err.println("rank " + rank + ": pi came out as " + pi[0]);
            MPI.COMM_WORLD.abort(3);
        }
        int[] token = {0};
        if (rank == 0) {
            MPI.COMM_WORLD.send(token, 1, MPI.INT, (rank + 1) % size, 1);
            Status s = MPI.COMM_WORLD.recv(token, 1, MPI.INT, size - 1, 1);
            System.out.printf("pi is %.6f on %d ranks; the token came back from rank %d as %d%n", pi[0], size,
                    s.getSource(), token[0]);
        } else {
            MPI.COMM_WORLD.recv(token, 1, MPI.INT, rank - 1, 1);
            token[0] += rank;
            MPI.COMM_WORLD.send(token, 1, MPI.INT, (rank + 1) % size, 1);
            System.out.println("rank " + rank + " of " + size + " passed the token on");
        }
        MPI.Finalize();
    }
}
