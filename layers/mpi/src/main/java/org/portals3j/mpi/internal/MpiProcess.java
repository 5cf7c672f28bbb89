package org.portals3j.mpi.internal;

import org.portals3j.portals.Portals;
import org.portals3j.portals.PortalsConfig;
import org.portals3j.runtime.JobContext;
import org.portals3j.transport.TransportException;

/**
 * The MPI state of one rank between {@code MPI.Init} and {@code MPI.Finalize}: its place in the job, its Portals
 * library and point-to-point engine, and its predefined communicators.
 */
public final class MpiProcess {
    /** Context ids of the predefined communicators (each keeps the next odd id for its collectives). */
    public static final int WORLD_CONTEXT = 0;
    public static final int SELF_CONTEXT = 2;

    private final JobContext job;
    private final PointToPoint engine;
    private final CommState world;
    private final CommState self;
    private final ContextIds contexts = new ContextIds();
    private final int threadLevel;
    private final Thread mainThread;
    private volatile boolean finalized;
    /** The buffer of buffered-mode sends ({@code MPI.attachBuffer}). */
    private final BufferedSends bufferedSends = new BufferedSends();

    MpiProcess(JobContext job, MpiConfig config, int threadLevel) throws TransportException {
        if (job.size() > MatchBits.MAX_RANKS) {
            throw new MpiError(ErrorClass.OTHER, "a job of " + job.size() + " ranks is larger than the "
                    + MatchBits.MAX_RANKS + " this MPI layer supports");
        }
        this.job = job;
        boolean oversubscribed = job.bootstrap().oversubscribed();
        Portals lib = Portals.create(job.job(), job.transport(),
                PortalsConfig.DEFAULT.withOversubscribed(oversubscribed));
        this.engine = new PointToPoint(lib, job.rank(), config, oversubscribed);
        int[] all = new int[job.size()];
        for (int r = 0; r < all.length; r++) {
            all[r] = r;
        }
        this.world = new CommState(engine, WORLD_CONTEXT, all, "MPI_COMM_WORLD");
        this.self = new CommState(engine, SELF_CONTEXT, new int[] {job.rank()}, "MPI_COMM_SELF");
        this.threadLevel = threadLevel;
        this.mainThread = Thread.currentThread();
        // no rank may send before every rank has set up its receive side
        job.barrier();
    }

    public CommState world() {
        return world;
    }

    public CommState self() {
        return self;
    }

    /** The context ids this rank has used (for the communicators it makes). */
    public ContextIds contexts() {
        return contexts;
    }

    public PointToPoint engine() {
        return engine;
    }

    public int rank() {
        return job.rank();
    }

    public int threadLevel() {
        return threadLevel;
    }

    public boolean isMainThread() {
        return Thread.currentThread() == mainThread;
    }

    /** The buffer of this rank's buffered-mode sends. */
    public BufferedSends bufferedSends() {
        return bufferedSends;
    }

    public boolean isFinalized() {
        return finalized;
    }

    /**
     * Finishes this rank's operations, waits until every rank has done so (no rank closes its endpoint while a
     * message to or from it may still be on its way), then releases the library and leaves the job.
     */
    void finish() throws TransportException {
        finalized = true;
        engine.finish();
        job.barrier();
        job.close();
    }

    // ---- communicator extras: attribute keyvals ----------------------------------------------------------------

    private final Keyvals keyvals = new Keyvals();

    /** The attribute keyvals of this rank, and the attributes of its datatypes. */
    public Keyvals keyvals() {
        return keyvals;
    }
}
