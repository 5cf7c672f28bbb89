package org.portals3j.mpi;

import java.util.Arrays;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

/**
 * The strided type of the derived-reduction tests (ints 0 and 3 of every four) and its buffers: each rank's data,
 * and the sums over the ranks that a reduction must give, every gap {@link #GAP}.
 */
final class StridedInts {
    /** What every int the type does not cover holds. */
    static final int GAP = -7;

    private StridedInts() {
    }

    /** Ints 0 and 3 of every four (extent 4 ints), committed. */
    static Datatype ends() throws MPIException {
        Datatype t = Datatype.createVector(2, 1, 3, MPI.INT);
        t.commit();
        return t;
    }

    /** {@code items} items of {@link #ends()}: element j of item k is {@code 100 * rank + 10 * k + j}. */
    static int[] strided(int rank, int items) {
        int[] b = new int[4 * items];
        Arrays.fill(b, GAP);
        for (int k = 0; k < items; k++) {
            b[4 * k] = 100 * rank + 10 * k;
            b[4 * k + 3] = 100 * rank + 10 * k + 1;
        }
        return b;
    }

    /** {@code items} items whose element j of item k is {@code sum(n, k, j)}. */
    static int[] sums(int n, int items) {
        int[] b = new int[4 * items];
        Arrays.fill(b, GAP);
        for (int k = 0; k < items; k++) {
            b[4 * k] = sum(n, k, 0);
            b[4 * k + 3] = sum(n, k, 1);
        }
        return b;
    }

    /** The sum over {@code n} ranks of element j of item k. */
    static int sum(int n, int k, int j) {
        return 100 * n * (n - 1) / 2 + n * (10 * k + j);
    }
}
