package org.portals3j.bench;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import org.portals3j.portals.EqHandle;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.InterfaceId;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.NiHandle;
import org.portals3j.portals.Portals;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.LocalJob;
import org.portals3j.transport.IdleMode;
import org.portals3j.transport.Job;
import org.portals3j.transport.JobMember;
import org.portals3j.transport.Transport;
import org.portals3j.transport.Transports;

/**
 * A 2-rank job whose two Portals libraries live in the calling thread: for the JMH benchmarks. On
 * {@code inmem} a put is delivered inline, in the caller's thread, so one benchmark thread can put from
 * rank 0 and then take the events of both ranks with {@code PtlEQGet}.
 */
public final class TwoRanks implements AutoCloseable {
    private final List<Transport> transports;
    private final Portals[] portals = new Portals[2];
    private final NiHandle[] nis = new NiHandle[2];
    private final ProcessId[] ids = new ProcessId[2];

    private TwoRanks(Job job, List<Transport> transports) {
        this.transports = transports;
        for (int r = 0; r < 2; r++) {
            Portals p = Portals.create(job, transports.get(r));
            p.init();
            portals[r] = p;
            nis[r] = p.niInit(InterfaceId.DEFAULT, ProcessId.PID_ANY, null).handle();
            JobMember m = job.peers().member(r);
            ids[r] = new ProcessId(m.nid(), m.pid());
        }
    }

    /** Opens both endpoints on {@code transport} and initialises the default interface of each rank. */
    public static TwoRanks open(String transport) throws Exception {
        return open(transport, Map.of());
    }

    /** {@link #open(String)} with the endpoints' {@code options}. */
    public static TwoRanks open(String transport, Map<String, String> options) throws Exception {
        Job job = Job.local(2);
        List<Transport> endpoints = LocalJob.openAll(Transports.require(transport), job, IdleMode.BACKOFF, options);
        try {
            return new TwoRanks(job, endpoints);
        } catch (RuntimeException e) {
            endpoints.forEach(Transport::close);
            throw e;
        }
    }

    public Portals portals(int rank) {
        return portals[rank];
    }

    public NiHandle ni(int rank) {
        return nis[rank];
    }

    /** The process id of {@code rank}, for use as a put's target. */
    public ProcessId id(int rank) {
        return ids[rank];
    }

    /**
     * Appends a match entry for exactly {@code matchBits} (from any process) to {@code portal} of
     * {@code rank}, with an MD over {@code region} that takes puts at offset 0 (MANAGE_REMOTE, so it
     * never fills up), logging to {@code eq}.
     *
     * @return the MD's handle
     */
    public MdHandle appendReceive(int rank, int portal, long matchBits, MemorySegment region, EqHandle eq) {
        Portals p = portals[rank];
        MeHandle me = p.meAttach(nis[rank], portal, ProcessId.ANY, matchBits, 0L, Unlink.RETAIN, InsertPosition.AFTER);
        return p.mdAttach(me, MemoryDescriptor.of(region).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                .withEventQueue(eq), Unlink.RETAIN, Unlink.RETAIN);
    }

    @Override
    public void close() {
        for (Portals p : portals) {
            if (p != null) {
                p.fini();
            }
        }
        transports.forEach(Transport::close);
    }
}
