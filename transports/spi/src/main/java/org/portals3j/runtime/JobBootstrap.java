package org.portals3j.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Oversubscription;
import org.portals3j.transport.Rendezvous;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.Transports;

/**
 * A rank that has found its job but has not opened a transport endpoint yet: the job (peer table built
 * from every rank's published uid), the rank, the rendezvous it stays connected to, and the transport it
 * will open. {@link #open()} opens the endpoint; a program that needs only the job table (a tool, a test)
 * may stop here.
 */
public final class JobBootstrap implements AutoCloseable {
    private final JobSource source;
    private final Job job;
    private final int rank;
    private final String transportName;
    private final Map<String, String> transportOptions;
    private final IdleMode idle;
    private final boolean oversubscribed;
    private final Rendezvous rendezvous;
    private final @Nullable TcpRendezvous tcp;
    private final @Nullable RendezvousServer server;
    private final Duration timeout;
    private final boolean ownsTransport;
    private @Nullable JobContext opened;
    private boolean closed;

    JobBootstrap(JobSource source, Job job, int rank, String transportName, Map<String, String> transportOptions,
                 IdleMode idle, boolean oversubscribed, Rendezvous rendezvous, @Nullable TcpRendezvous tcp,
                 @Nullable RendezvousServer server, Duration timeout, boolean ownsTransport) {
        this.source = source;
        this.job = job;
        this.rank = rank;
        this.transportName = transportName;
        this.transportOptions = Map.copyOf(transportOptions);
        this.idle = idle;
        this.oversubscribed = oversubscribed;
        this.rendezvous = rendezvous;
        this.tcp = tcp;
        this.server = server;
        this.timeout = timeout;
        this.ownsTransport = ownsTransport;
    }

    /** Every rank of an in-JVM job runs on this host: oversubscribed as {@link LocalJob#openAll} decides. */
    static JobBootstrap inJvm(Job job, int rank, Transport transport) {
        return inJvm(job, rank, transport, Oversubscription.onThisHost(job.size()));
    }

    static JobBootstrap inJvm(Job job, int rank, Transport transport, boolean oversubscribed) {
        Objects.requireNonNull(transport, "transport");
        JobBootstrap b = new JobBootstrap(JobSource.IN_JVM, job, rank, transport.provider(), Map.of(),
                IdleMode.BACKOFF, oversubscribed, LocalRendezvous.of(job), null, null, Duration.ofSeconds(60), false);
        b.opened = new JobContext(b, transport);
        return b;
    }

    JobContext openedContext() {
        JobContext context = opened;
        if (context == null) {
            throw new IllegalStateException("not opened");
        }
        return context;
    }

    public JobSource source() {
        return source;
    }

    /** The job: id, key, and the peer table (rank {@code r}: nid {@code r}, pid {@link Job#DEFAULT_PID}, its uid). */
    public Job job() {
        return job;
    }

    public int rank() {
        return rank;
    }

    public int size() {
        return job.size();
    }

    /** The name of the transport {@link #open()} opens ({@code PORTALS_TRANSPORT}). */
    public String transportName() {
        return transportName;
    }

    /** The options {@link #open()} passes to the transport ({@code PORTALS_TRANSPORT_OPTIONS}). */
    public Map<String, String> transportOptions() {
        return transportOptions;
    }

    /**
     * Whether the job's ranks on this host outnumber its cores, or the override says so ({@link Oversubscription}):
     * what the endpoint and the layers above tell their waits.
     */
    public boolean oversubscribed() {
        return oversubscribed;
    }

    /** Where this rank's endpoint publishes its address and finds its peers'. */
    public Rendezvous rendezvous() {
        return rendezvous;
    }

    /** The TCP rendezvous this rank serves (rank 0 under Slurm or Open MPI), if any. */
    public @Nullable RendezvousServer server() {
        return server;
    }

    /**
     * Opens this rank's endpoint on the job's transport (once; later calls return the same context).
     *
     * @throws TransportException when the transport is unknown or unavailable here, or cannot open
     */
    public synchronized JobContext open() throws TransportException {
        if (closed) {
            throw new IllegalStateException("rank " + rank + " has left its job");
        }
        JobContext context = opened;
        if (context == null) {
            Transport transport = Transports.require(transportName)
                    .open(new EndpointConfig(job, rank, idle, transportOptions, rendezvous, oversubscribed));
            context = new JobContext(this, transport);
            opened = context;
        }
        return context;
    }

    /**
     * Leaves the job: closes the endpoint (unless an in-JVM runner owns it) and the rendezvous connection.
     * A rank that serves the rendezvous first waits (up to {@code PORTALS_RENDEZVOUS_TIMEOUT}) for the other
     * ranks to leave, so that none of them sees it vanish.
     */
    @Override
    public void close() {
        JobContext context;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            context = opened;
        }
        if (context != null && ownsTransport) {
            context.transport().close();
        }
        TcpRendezvous client = tcp;
        if (client != null) {
            client.close();
        }
        RendezvousServer s = server;
        if (s != null) {
            try {
                s.awaitRanksGone(-1, timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            s.close();
        }
    }

    /** As {@link #close()}, from the JVM's shutdown: a serving rank waits for the others, never for itself. */
    void closeAtShutdown() {
        RendezvousServer s = server;
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        if (s != null) {
            try {
                s.awaitRanksGone(rank, timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    @Override
    public String toString() {
        return "JobBootstrap[rank " + rank + " of " + job + " via " + source + ", transport " + transportName + "]";
    }
}
