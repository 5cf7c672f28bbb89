import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Status;

/**
 * A program written for Open MPI's Java bindings, compiled against this layer's jar unchanged: every rank but 0 sends
 * rank 0 a few reports whose length only the sender knows (some long enough to need a rendezvous); rank 0 sizes each
 * receive from a matched probe of any source and tag, then checks every report. A wrong value aborts the job.
 */
public class Collector {
    private static final int REPORTS = 4;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int me = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        if (me != 0) {
            for (int k = 0; k < REPORTS; k++) {
                double[] report = new double[length(me, k)];
                for (int i = 0; i < report.length; i++) {
                    report[i] = me + i * 0.25;
                }
                MPI.COMM_WORLD.send(report, report.length, MPI.DOUBLE, 0, k);
            }
        } else {
            int[] seen = new int[size];
            Message message = new Message();
            for (int n = 0; n < (size - 1) * REPORTS; n++) {
                Status probed = message.mProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD);
                int from = probed.getSource();
                double[] report = new double[probed.getCount(MPI.DOUBLE)];
                Status got = message.mRecv(report, report.length, MPI.DOUBLE);
                if (!message.isNull() || got.getSource() != from || probed.getTag() != seen[from]
                        || report.length != length(from, probed.getTag())
                        || report.length > 0 && report[report.length - 1] != from + (report.length - 1) * 0.25) {
                    MPI.COMM_WORLD.abort(4);
                }
                seen[from]++;
            }
            if (message.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.COMM_WORLD) != null) {
                MPI.COMM_WORLD.abort(5);
            }
            System.out.println("rank 0 collected " + (size - 1) * REPORTS + " reports");
        }
        MPI.Finalize();
    }

    /** The length of report {@code k} of rank {@code rank}: 0 to several thousand doubles. */
    private static int length(int rank, int k) {
        return (rank * 7 + k * 1_531) % 5_000 * (k % 2 == 0 ? 1 : 3);
    }
}
