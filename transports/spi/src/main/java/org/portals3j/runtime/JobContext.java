package org.portals3j.runtime;

import java.time.Duration;
import org.portals3j.transport.Job;
import org.portals3j.transport.Rendezvous;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;

/**
 * A rank's place in its job once joined: the job (with the peer table), the rank, and its open endpoint
 * on the job's transport. Returned by {@link JobRuntime#join()}; hand {@link #job()} and
 * {@link #transport()} to {@code Portals.create(job, transport)}.
 *
 * <p>{@link #close()} closes the endpoint and leaves the job (see {@link JobBootstrap#close()}).
 */
public final class JobContext implements AutoCloseable {
    private final JobBootstrap bootstrap;
    private final Transport transport;
    /** Barriers this rank has entered; the n-th barrier of every rank meets under the key "barrier.n". */
    private long barriers;

    JobContext(JobBootstrap bootstrap, Transport transport) {
        this.bootstrap = bootstrap;
        this.transport = transport;
    }

    /**
     * The context of rank {@code rank} of an in-JVM job whose endpoints the caller opened (and will close):
     * what an in-JVM runner hands to {@link JobRuntime#runAsRank}.
     */
    public static JobContext inJvm(Job job, int rank, Transport transport) {
        return JobBootstrap.inJvm(job, rank, transport).openedContext();
    }

    public Job job() {
        return bootstrap.job();
    }

    public int rank() {
        return bootstrap.rank();
    }

    public int size() {
        return bootstrap.size();
    }

    /** The rank's open endpoint on the job's transport. */
    public Transport transport() {
        return transport;
    }

    /** How the rank joined (its source, rendezvous, transport name and options). */
    public JobBootstrap bootstrap() {
        return bootstrap;
    }

    /**
     * Waits until every rank of the job has called {@code barrier()} as often as this one. It goes through
     * the job's rendezvous, not the transport: slow (a round trip to the rendezvous per rank), meant for
     * start-up and shutdown, e.g. so that no rank sends before every rank has set up its receive buffers.
     *
     * @throws TransportException when a rank does not arrive within {@code timeout}
     */
    public synchronized void barrier(Duration timeout) throws TransportException {
        String key = "barrier." + (++barriers);
        Rendezvous rendezvous = bootstrap.rendezvous();
        rendezvous.publish(rank(), key, "arrived");
        for (int r = 0; r < size(); r++) {
            rendezvous.lookup(r, key, timeout);
        }
    }

    /** {@link #barrier(Duration)} with the job's rendezvous timeout ({@link JobRuntime#DEFAULT_TIMEOUT} by default). */
    public void barrier() throws TransportException {
        barrier(JobRuntime.DEFAULT_TIMEOUT);
    }

    /** Closes the endpoint (unless an in-JVM runner owns it) and leaves the job. */
    @Override
    public void close() {
        bootstrap.close();
    }

    @Override
    public String toString() {
        return "JobContext[rank " + rank() + " of " + job() + " on " + transport.provider() + "]";
    }
}
