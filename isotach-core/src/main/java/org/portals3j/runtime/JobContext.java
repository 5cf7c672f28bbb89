package org.portals3j.runtime;

import org.portals3j.transport.Transport;

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
