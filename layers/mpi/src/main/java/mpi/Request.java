package mpi;

import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.mpi.internal.CommState;
import org.portals3j.mpi.internal.Messages;
import org.portals3j.mpi.internal.Operation;
import org.portals3j.mpi.internal.PointToPoint;
import org.portals3j.mpi.internal.ReceiveOperation;

/**
 * A nonblocking operation (mpi-java-api.md section 1.7). Completing it ({@code waitFor}, a successful {@code test},
 * the array forms) releases it: it becomes null. A {@code null} element of an array given to the static forms is
 * taken as {@code MPI.REQUEST_NULL}. Freeing an active request lets the operation finish in the background; the
 * engine keeps it, and its buffer, until then.
 */
public class Request implements Freeable {
    private @Nullable Operation op;
    private @Nullable CommState comm;

    /** {@code MPI.REQUEST_NULL}. */
    Request() {
    }

    Request(CommState comm, Operation op) {
        this.comm = comm;
        this.op = op;
    }

    // ---- one request ------------------------------------------------------------------------------

    /**
     * Waits until the operation completes and releases the request. No status is made: an operation of
     * {@code iSend} or {@code iRecv} goes back to the calling thread for reuse, so that a nonblocking round trip
     * allocates only its requests.
     */
    public final void waitFor() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            return;
        }
        c.engine().await(o);
        release();
        try {
            check(c, o);
        } finally {
            Messages.recycle(o);
        }
    }

    public final Status waitStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            return Status.empty();
        }
        c.engine().await(o);
        release();
        try {
            return statusOf(c, o);
        } finally {
            Messages.recycle(o);
        }
    }

    /** Whether the operation has completed (the request is then released); like {@link #waitFor}, no status. */
    public final boolean test() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            return true;
        }
        c.engine().progress();
        if (!o.isDone()) {
            return false;
        }
        release();
        try {
            check(c, o);
        } finally {
            Messages.recycle(o);
        }
        return true;
    }

    /** The status if the operation has completed (the request is released), else null. */
    public final @Nullable Status testStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            return Status.empty();
        }
        c.engine().progress();
        if (!o.isDone()) {
            return null;
        }
        release();
        try {
            return statusOf(c, o);
        } finally {
            Messages.recycle(o);
        }
    }

    /** Like {@link #testStatus()}, but the request is not released. */
    public final @Nullable Status getStatus() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            return Status.empty();
        }
        c.engine().progress();
        return o.isDone() ? statusOf(c, o) : null;
    }

    /** Releases the request; an operation under way still finishes. Freeing a null request does nothing. */
    @Override
    public final void free() throws MPIException {
        MPI.check();
        freeHandle();
        release();
    }

    /**
     * Cancels a receive that has not matched yet (its status then says cancelled); a receive that has matched, and
     * any send, completes normally. The request must still be completed. Cancelling a null request is
     * {@code ERR_REQUEST}.
     */
    public final void cancel() throws MPIException {
        MPI.check();
        Operation o = op;
        CommState c = comm;
        if (o == null || c == null) {
            throw MPI.raise(MPI.process().world(), MPI.ERR_REQUEST, "cannot cancel a null (freed or completed)"
                    + " request");
        }
        if (o instanceof ReceiveOperation r) {
            c.engine().cancel(r);
        }
    }

    public final boolean isNull() {
        return op == null && !keepsHandle();
    }

    private void release() {
        op = null;
        comm = null;
    }

    private boolean isDone() {
        Operation o = op;
        return o != null && o.isDone();
    }

    // ---- persistent requests (Prequest): an inactive one has no operation but is not null ----------

    /** Whether the handle stays valid while no operation is under way (a persistent request until freed). */
    boolean keepsHandle() {
        return false;
    }

    /** Called by {@link #free()} before the request is released. */
    void freeHandle() {
    }

    /** Whether an operation is under way (not yet completed through this request). */
    final boolean isActive() {
        return op != null;
    }

    /** Makes {@code started} the operation of this request (a persistent request's start). */
    final void activate(CommState c, Operation started) {
        comm = c;
        op = started;
    }

    // ---- arrays of requests -----------------------------------------------------------------------

    /** Waits for every request and releases them, making no statuses (as {@link #waitFor}). */
    public static void waitAll(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        awaitAll(requests);
        collectAll(requests, null);
    }

    /** Waits for every request; one status per request (MPI's empty status for a null one). */
    public static Status[] waitAllStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        awaitAll(requests);
        Status[] statuses = new Status[requests.length];
        collectAll(requests, statuses);
        return statuses;
    }

    private static void awaitAll(@Nullable Request[] requests) throws MPIException {
        for (Request r : requests) {
            Operation o = r == null ? null : r.op;
            CommState c = r == null ? null : r.comm;
            if (o != null && c != null) {
                c.engine().await(o);
            }
        }
    }

    /** Waits for one request; its index, or {@code MPI.UNDEFINED} if none is active. */
    public static int waitAny(@Nullable Request[] requests) throws MPIException {
        return waitAnyStatus(requests).getIndex();
    }

    public static Status waitAnyStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        boolean first = true;
        while (true) {
            PointToPoint engine = engineOf(requests);
            if (engine == null) {
                return Status.empty();
            }
            engine.progress();
            Status s = takeAny(requests);
            if (s != null) {
                return s;
            }
            engine.idleRound(first);
            first = false;
        }
    }

    /** Waits for at least one request; the indices of all that completed, or null if none is active. */
    public static int @Nullable [] waitSome(@Nullable Request[] requests) throws MPIException {
        return indices(waitSomeStatus(requests));
    }

    public static Status @Nullable [] waitSomeStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        boolean first = true;
        while (true) {
            PointToPoint engine = engineOf(requests);
            if (engine == null) {
                return null;
            }
            engine.progress();
            Status[] done = takeSome(requests);
            if (done.length > 0) {
                return done;
            }
            engine.idleRound(first);
            first = false;
        }
    }

    /** Whether every request has completed; if so they are released (no statuses made). */
    public static boolean testAll(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        PointToPoint engine = engineOf(requests);
        if (engine != null) {
            engine.progress();
        }
        if (!allDone(requests)) {
            return false;
        }
        collectAll(requests, null);
        return true;
    }

    public static Status @Nullable [] testAllStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        PointToPoint engine = engineOf(requests);
        if (engine != null) {
            engine.progress();
        }
        if (!allDone(requests)) {
            return null;
        }
        Status[] statuses = new Status[requests.length];
        collectAll(requests, statuses);
        return statuses;
    }

    private static boolean allDone(@Nullable Request[] requests) {
        for (Request r : requests) {
            if (r != null && r.op != null && !r.isDone()) {
                return false;
            }
        }
        return true;
    }

    /** The index of a completed request (released), or {@code MPI.UNDEFINED}. */
    public static int testAny(@Nullable Request[] requests) throws MPIException {
        Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /** The status of a completed request (released), null if none has completed; all null: an empty status. */
    public static @Nullable Status testAnyStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        PointToPoint engine = engineOf(requests);
        if (engine == null) {
            return Status.empty();
        }
        engine.progress();
        return takeAny(requests);
    }

    /** The indices of the completed requests (released): empty if none; null if none is active. */
    public static int @Nullable [] testSome(@Nullable Request[] requests) throws MPIException {
        return indices(testSomeStatus(requests));
    }

    public static Status @Nullable [] testSomeStatus(@Nullable Request[] requests) throws MPIException {
        MPI.check();
        PointToPoint engine = engineOf(requests);
        if (engine == null) {
            return null;
        }
        engine.progress();
        return takeSome(requests);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** The engine of the first active request, or null if none is active. */
    private static @Nullable PointToPoint engineOf(@Nullable Request[] requests) {
        for (Request r : requests) {
            if (r == null) {
                continue;
            }
            CommState c = r.comm;
            if (c != null && r.op != null) {
                return c.engine();
            }
        }
        return null;
    }

    /**
     * Releases every request, their statuses into {@code statuses} if not null; ERR_IN_STATUS if any failed (the
     * message is built only then).
     */
    private static void collectAll(@Nullable Request[] requests, Status @Nullable [] statuses)
            throws MPIException {
        CommState failedOn = null;
        StringBuilder failures = null;
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            Operation o = r == null ? null : r.op;
            CommState c = r == null ? null : r.comm;
            if (r == null || o == null || c == null) {
                if (statuses != null) {
                    statuses[i] = Status.empty();
                }
                continue;
            }
            r.release();
            if (statuses != null) {
                statuses[i] = rawStatus(o).withIndex(i);
            }
            if (o.errorClass() != MPI.SUCCESS) {
                failedOn = failedOn == null ? c : failedOn;
                failures = failures == null ? new StringBuilder() : failures.append("; ");
                failures.append("request ").append(i).append(": ").append(o.errorMessage());
            }
            Messages.recycle(o);
        }
        if (failedOn != null && failures != null) {
            throw MPI.raise(failedOn, MPI.ERR_IN_STATUS, failures.toString());
        }
    }

    /** The first completed request's status (it is released), or null. */
    private static @Nullable Status takeAny(@Nullable Request[] requests) throws MPIException {
        for (int i = 0; i < requests.length; i++) {
            Request r = requests[i];
            if (r != null && r.isDone()) {
                Operation o = r.op;
                CommState c = r.comm;
                r.release();
                if (o != null && c != null) {
                    try {
                        return statusOf(c, o).withIndex(i);
                    } finally {
                        Messages.recycle(o);
                    }
                }
            }
        }
        return null;
    }

    /** The statuses of every completed request (released); ERR_IN_STATUS if any failed. */
    private static Status[] takeSome(@Nullable Request[] requests) throws MPIException {
        int n = 0;
        for (Request r : requests) {
            if (r != null && r.isDone()) {
                n++;
            }
        }
        Status[] done = new Status[n];
        Request[] finished = new Request[n];
        int k = 0;
        for (int i = 0; i < requests.length && k < n; i++) {
            Request r = requests[i];
            if (r != null && r.isDone()) {
                finished[k] = r;
                Operation o = r.op;
                done[k++] = o == null ? Status.empty() : rawStatus(o).withIndex(i);
            }
        }
        collectAll(finished, null);
        return done;
    }

    private static int @Nullable [] indices(Status @Nullable [] statuses) {
        if (statuses == null) {
            return null;
        }
        int[] indices = new int[statuses.length];
        for (int i = 0; i < statuses.length; i++) {
            indices[i] = statuses[i].getIndex();
        }
        return indices;
    }

    /** The status of the finished {@code op}; its error, if any, through {@code c}'s error handler. */
    static Status statusOf(CommState c, Operation op) throws MPIException {
        check(c, op);
        return rawStatus(op);
    }

    /** Raises the error {@code op} ended with, if any, through {@code c}'s error handler. */
    static void check(CommState c, Operation op) throws MPIException {
        if (op.errorClass() != MPI.SUCCESS) {
            throw MPI.raise(c, op.errorClass(), op.errorMessage());
        }
    }

    private static Status rawStatus(Operation op) {
        if (!(op instanceof ReceiveOperation)) {
            return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, op.errorClass(), 0, false);
        }
        return new Status(op.source(), op.tag(), op.errorClass(), op.bytes(), op.isCancelled());
    }
}
