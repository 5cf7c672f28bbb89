import mpi.CartComm;
import mpi.CartParms;
import mpi.MPI;
import mpi.MPIException;
import mpi.ShiftParms;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: a Jacobi relaxation
 * of a square plate on a two-dimensional process grid (createDims, createCart, shift, sendRecv with PROC_NULL at
 * the plate's edges, allReduce of the residual). Every rank also relaxes the whole plate alone and aborts the job
 * if its block differs from the distributed result.
 */
public class Stencil {
    private static final int BLOCK = 6;
    private static final int STEPS = 25;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int[] dims = new int[2];
        CartComm.createDims(MPI.COMM_WORLD.getSize(), dims);
        CartComm grid = MPI.COMM_WORLD.createCart(dims, new boolean[] {false, false}, true);
        CartParms topo = grid.getTopo();
        int top = topo.getCoord(0) * BLOCK;
        int left = topo.getCoord(1) * BLOCK;
        int rows = dims[0] * BLOCK;
        int cols = dims[1] * BLOCK;
        double[][] u = new double[BLOCK + 2][BLOCK + 2];
        for (int i = 0; i < BLOCK; i++) {
            for (int j = 0; j < BLOCK; j++) {
                u[i + 1][j + 1] = initial(top + i, left + j);
            }
        }
        ShiftParms vertical = grid.shift(0, 1);
        ShiftParms horizontal = grid.shift(1, 1);
        double residual = 0;
        for (int step = 0; step < STEPS; step++) {
            exchange(grid, u, vertical, horizontal);
            double[][] next = new double[BLOCK + 2][BLOCK + 2];
            double local = 0;
            for (int i = 1; i <= BLOCK; i++) {
                for (int j = 1; j <= BLOCK; j++) {
                    next[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4;
                    local += Math.abs(next[i][j] - u[i][j]);
                }
            }
            u = next;
            double[] sum = {local};
            grid.allReduce(sum, 1, MPI.DOUBLE, MPI.SUM);
            residual = sum[0];
        }
        double[][] whole = serial(rows, cols);
        for (int i = 0; i < BLOCK; i++) {
            for (int j = 0; j < BLOCK; j++) {
                if (Math.abs(whole[top + i + 1][left + j + 1] - u[i + 1][j + 1]) > 1e-12) {
                    grid.abort(4);
                }
            }
        }
        if (grid.getRank() == 0) {
            System.out.println("stencil on a " + dims[0] + "x" + dims[1] + " grid: residual " + residual);
        }
        grid.free();
        MPI.Finalize();
    }

    /** Fills the halo of {@code u} from the four neighbours (nothing comes from past the plate's edge). */
    private static void exchange(CartComm grid, double[][] u, ShiftParms vertical, ShiftParms horizontal)
            throws MPIException {
        grid.sendRecv(u[BLOCK], BLOCK + 2, MPI.DOUBLE, vertical.getRankDest(), 1,
                u[0], BLOCK + 2, MPI.DOUBLE, vertical.getRankSource(), 1);
        grid.sendRecv(u[1], BLOCK + 2, MPI.DOUBLE, vertical.getRankSource(), 2,
                u[BLOCK + 1], BLOCK + 2, MPI.DOUBLE, vertical.getRankDest(), 2);
        double[] out = new double[BLOCK];
        double[] in = new double[BLOCK];
        for (int side = 0; side < 2; side++) {
            int sendCol = side == 0 ? BLOCK : 1;
            int recvCol = side == 0 ? 0 : BLOCK + 1;
            int dest = side == 0 ? horizontal.getRankDest() : horizontal.getRankSource();
            int source = side == 0 ? horizontal.getRankSource() : horizontal.getRankDest();
            for (int i = 0; i < BLOCK; i++) {
                out[i] = u[i + 1][sendCol];
            }
            grid.sendRecv(out, BLOCK, MPI.DOUBLE, dest, 3 + side, in, BLOCK, MPI.DOUBLE, source, 3 + side);
            if (source != MPI.PROC_NULL) {
                for (int i = 0; i < BLOCK; i++) {
                    u[i + 1][recvCol] = in[i];
                }
            }
        }
    }

    private static double initial(int row, int col) {
        return (row * 31 + col * 17) % 13;
    }

    /** The whole plate relaxed by one process, with a zero border. */
    private static double[][] serial(int rows, int cols) {
        double[][] u = new double[rows + 2][cols + 2];
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                u[i + 1][j + 1] = initial(i, j);
            }
        }
        for (int step = 0; step < STEPS; step++) {
            double[][] next = new double[rows + 2][cols + 2];
            for (int i = 1; i <= rows; i++) {
                for (int j = 1; j <= cols; j++) {
                    next[i][j] = (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] + u[i][j + 1]) / 4;
                }
            }
            u = next;
        }
        return u;
    }
}
