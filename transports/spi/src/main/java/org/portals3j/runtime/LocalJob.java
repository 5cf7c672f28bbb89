package org.portals3j.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.EndpointConfig;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.LocalRendezvous;
import org.portals3j.transport.Oversubscription;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportException;
import org.portals3j.transport.TransportProvider;
import org.portals3j.transport.Transports;

/**
 * Runs every rank of a job as a thread of this JVM: the embedded way to run a job (and the only one
 * for the in-memory transport). All endpoints are opened before any rank starts, so no rank can send
 * to a peer that is not there yet.
 */
public final class LocalJob {

    /** The body of one rank. */
    @FunctionalInterface
    public interface RankMain {
        void run(RankContext context) throws Exception;
    }

    /** What a rank is given: its job, its rank and its open endpoint. */
    public record RankContext(Job job, int rank, Transport transport) {
    }

    private LocalJob() {
    }

    /**
     * Opens the endpoint of every rank of {@code job} on {@code provider}: all its ranks run on this host, so they
     * are oversubscribed when they outnumber its cores ({@link Oversubscription#onThisHost}).
     *
     * @throws TransportException also if the oversubscription override is not a setting (the message names it)
     */
    public static List<Transport> openAll(TransportProvider provider, Job job, IdleMode idle,
                                          Map<String, String> options) throws TransportException {
        Oversubscription setting;
        try {
            setting = Oversubscription.setting(System.getenv(), System.getProperties());
        } catch (IllegalArgumentException e) {
            throw new TransportException(String.valueOf(e.getMessage()));
        }
        return openAll(provider, job, idle, options, setting, Runtime.getRuntime().availableProcessors());
    }

    /** As {@link #openAll(TransportProvider, Job, IdleMode, Map)}, with the override and the host's cores given. */
    static List<Transport> openAll(TransportProvider provider, Job job, IdleMode idle, Map<String, String> options,
                                   Oversubscription setting, int cores) throws TransportException {
        boolean oversubscribed = setting.decide(job.size(), cores);
        List<Transport> endpoints = new ArrayList<>(job.size());
        try {
            for (int r = 0; r < job.size(); r++) {
                endpoints.add(provider.open(new EndpointConfig(job, r, idle, options, LocalRendezvous.of(job),
                        oversubscribed)));
            }
        } catch (TransportException | RuntimeException e) {
            endpoints.forEach(Transport::close);
            throw e;
        }
        return endpoints;
    }

    /**
     * Runs {@code main} once per rank, each in its own thread, and waits for all of them.
     *
     * @throws Exception the first failure of any rank (the others' failures are suppressed into it)
     */
    public static void run(String transport, Job job, IdleMode idle, Map<String, String> options, RankMain main)
            throws Exception {
        TransportProvider provider = Transports.require(transport);
        List<Transport> endpoints = openAll(provider, job, idle, options);
        AtomicReference<@Nullable Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(job.size());
        try {
            for (int r = 0; r < job.size(); r++) {
                RankContext context = new RankContext(job, r, endpoints.get(r));
                Thread t = Thread.ofPlatform().name("rank-" + r).unstarted(() -> {
                    try {
                        main.run(context);
                    } catch (Throwable e) {
                        if (!failure.compareAndSet(null, e)) {
                            @Nullable Throwable first = failure.get();
                            if (first != null) {
                                first.addSuppressed(e);
                            }
                        }
                    }
                });
                threads.add(t);
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
        } finally {
            endpoints.forEach(Transport::close);
        }
        @Nullable Throwable first = failure.get();
        if (first instanceof Exception e) {
            throw e;
        } else if (first instanceof Error e) {
            throw e;
        }
    }
}
