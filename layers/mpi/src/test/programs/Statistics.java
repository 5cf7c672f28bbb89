import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: rank 0 makes a table
 * of numbers, scatters its rows, every rank sums its row, the ranks are split into two teams by parity that each
 * compute their total and maximum, and everything is checked against what rank 0 works out alone. A wrong value
 * aborts the job.
 */
public class Statistics {
    private static final int ROW = 6;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int me = world.getRank();
        int size = world.getSize();
        int[] table = null;
        if (me == 0) {
            table = new int[size * ROW];
            for (int i = 0; i < table.length; i++) {
                table[i] = (i * 37) % 101;
            }
        }
        int[] row = new int[ROW];
        world.scatter(table, ROW, MPI.INT, row, ROW, MPI.INT, 0);
        long rowSum = 0;
        for (int v : row) {
            rowSum += v;
        }
        long[] total = {rowSum};
        world.allReduce(total, 1, MPI.LONG, MPI.SUM);

        Intracomm team = world.split(me % 2, me);
        long[] teamTotal = new long[1];
        team.reduce(new long[] {rowSum}, teamTotal, 1, MPI.LONG, MPI.SUM, 0);
        int[] teamMax = {max(row)};
        team.allReduce(teamMax, 1, MPI.INT, MPI.MAX);

        long[] rowSums = new long[size];
        world.gather(new long[] {rowSum}, 1, MPI.LONG, rowSums, 1, MPI.LONG, 0);
        long[] teamTotals = new long[2];
        boolean leader = team.getRank() == 0;
        long[] grand = new long[1];
        world.reduce(new long[] {leader ? teamTotal[0] : 0}, grand, 1, MPI.LONG, MPI.SUM, 0);
        if (me == 0) {
            long expected = 0;
            long[] byTeam = new long[2];
            for (int r = 0; r < size; r++) {
                long s = 0;
                for (int i = 0; i < ROW; i++) {
                    s += table[r * ROW + i];
                }
                expected += s;
                byTeam[r % 2] += s;
                check(rowSums[r] == s, world);
            }
            check(total[0] == expected, world);
            check(grand[0] == expected, world);
            teamTotals[0] = byTeam[0];
            teamTotals[1] = byTeam[1];
        }
        world.bcast(teamTotals, 2, MPI.LONG, 0);
        if (leader) {
            check(teamTotal[0] == teamTotals[me % 2], world);
        }
        int[] everyMax = new int[size];
        world.allGather(new int[] {max(row)}, 1, MPI.INT, everyMax, 1, MPI.INT);
        int expectedMax = Integer.MIN_VALUE;
        for (int r = me % 2; r < size; r += 2) {
            expectedMax = Math.max(expectedMax, everyMax[r]);
        }
        check(teamMax[0] == expectedMax, world);
        team.free();
        world.barrier();
        if (me == 0) {
            System.out.println("statistics of " + size + " rows: total " + total[0]);
        }
        MPI.Finalize();
    }

    private static int max(int[] values) {
        int m = Integer.MIN_VALUE;
        for (int v : values) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static void check(boolean ok, Intracomm comm) throws MPIException {
        if (!ok) {
            comm.abort(3);
        }
    }
}
