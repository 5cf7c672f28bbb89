import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: rank 0 owns a
 * matrix of size rows x ranks and hands column i to rank i with a resized vector type; every rank scales its
 * column and the columns are gathered back in place of the originals; rank 0 then sends the upper triangle of a
 * square matrix to the last rank with an indexed type, and every rank reports a (rank, sum) record to rank 0 as a
 * struct. A wrong value aborts the job.
 */
public class Columns {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        int rows = 4;
        Datatype vector = Datatype.createVector(rows, 1, size, MPI.DOUBLE);
        Datatype column = Datatype.createResized(vector, 0, 8);
        column.commit();
        double[] matrix = new double[rows * size];
        if (me == 0) {
            for (int i = 0; i < matrix.length; i++) {
                matrix[i] = i;
            }
        }
        double[] mine = new double[rows];
        MPI.COMM_WORLD.scatter(matrix, 1, column, mine, rows, MPI.DOUBLE, 0);
        double sum = 0;
        for (int r = 0; r < rows; r++) {
            check(mine[r] == r * size + me, "column value");
            mine[r] *= 2;
            sum += mine[r];
        }
        MPI.COMM_WORLD.gather(mine, rows, MPI.DOUBLE, matrix, 1, column, 0);
        if (me == 0) {
            for (int i = 0; i < matrix.length; i++) {
                check(matrix[i] == 2 * i, "gathered matrix");
            }
        }

        int n = 4;
        int[] lengths = new int[n];
        int[] displs = new int[n];
        for (int r = 0; r < n; r++) {
            lengths[r] = n - r;
            displs[r] = r * n + r;
        }
        Datatype upper = Datatype.createIndexed(lengths, displs, MPI.INT);
        upper.commit();
        int last = size - 1;
        if (me == 0) {
            int[] square = new int[n * n];
            for (int i = 0; i < square.length; i++) {
                square[i] = i + 1;
            }
            MPI.COMM_WORLD.send(square, 1, upper, last, 5);
        }
        if (me == last) {
            int[] square = new int[n * n];
            Status st = MPI.COMM_WORLD.recv(square, 1, upper, 0, 5);
            check(st.getCount(upper) == 1 && st.getElements(upper) == n * (n + 1) / 2, "triangle count");
            for (int r = 0; r < n; r++) {
                for (int c = 0; c < n; c++) {
                    check(square[r * n + c] == (c >= r ? r * n + c + 1 : 0), "triangle element");
                }
            }
        }

        Datatype record = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8},
                new Datatype[] {MPI.INT, MPI.DOUBLE});
        record.commit();
        int extent = record.getExtent();
        ByteBuffer out = ByteBuffer.allocateDirect(extent).order(ByteOrder.nativeOrder());
        out.putInt(0, me).putDouble(8, sum);
        ByteBuffer all = ByteBuffer.allocateDirect(extent * size).order(ByteOrder.nativeOrder());
        MPI.COMM_WORLD.gather(out, 1, record, all, 1, record, 0);
        if (me == 0) {
            for (int r = 0; r < size; r++) {
                double expected = 0;
                for (int i = 0; i < rows; i++) {
                    expected += 2 * (i * size + r);
                }
                check(all.getInt(r * extent) == r && all.getDouble(r * extent + 8) == expected, "records");
            }
            System.out.println("columns of " + size + " ranks: ok");
        }
        record.free();
        upper.free();
        column.free();
        vector.free();
        MPI.Finalize();
    }

    private static void check(boolean ok, String what) throws MPIException {
        if (!ok) {
            System.err.println("wrong " + what);
            MPI.COMM_WORLD.abort(3);
        }
    }
}
