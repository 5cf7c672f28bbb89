import mpi.MPI;
import mpi.MPIException;

/**
 * An MPI program as one writes it for Open MPI's Java bindings: every rank contributes rank + 1 to a sum and its
 * rank to a maximum, and prints what allReduce gave it (on 4 ranks: sum 10, max 3).
 */
public class AllReduceSum {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int[] sum = {rank + 1};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
        int[] max = new int[1];
        MPI.COMM_WORLD.allReduce(new int[] {rank}, max, 1, MPI.INT, MPI.MAX);
        System.out.println("rank " + rank + " of " + size + ": allReduce sum " + sum[0] + ", max " + max[0]);
        MPI.Finalize();
    }
}
