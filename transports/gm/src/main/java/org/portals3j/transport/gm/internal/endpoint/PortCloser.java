package org.portals3j.transport.gm.internal.endpoint;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;

/**
 * Closes the GM ports of a job's endpoints in this JVM together, when the last of them has closed. libfabric 1.17's
 * shm provider reaches a peer endpoint of the same process through that endpoint's own memory, not a mapping of its
 * own: closing one rank's port while another rank of the job in this JVM still sends to it or polls crashed the JVM
 * (SIGSEGV in pthread_spin_lock inside libfabric). Ranks in other processes are not affected: each has its mapping.
 * Over shm the job's last close still crashes: libgm's gm_close, and any progress of a port, reach a peer port of
 * the same process closed just before (neither closing the ports together nor polling between closes avoided it).
 */
final class PortCloser {
    /** Per job id: how many of its endpoints in this JVM are open, and the ports of those that closed. */
    private static final Map<String, Job> JOBS = new HashMap<>();

    private static final class Job {
        int open;
        final List<GmPort> closed = new ArrayList<>();
    }

    private PortCloser() {
    }

    /** An endpoint of {@code jobId} opened its port. */
    static void opened(String jobId) {
        synchronized (JOBS) {
            JOBS.computeIfAbsent(jobId, id -> new Job()).open++;
        }
    }

    /** An endpoint of {@code jobId} is done with {@code port}: closes it, and the job's others, once all are done. */
    static void close(String jobId, GmPort port) {
        List<GmPort> ports;
        synchronized (JOBS) {
            Job job = JOBS.get(jobId);
            if (job == null) { // not counted: close at once
                ports = List.of(port);
            } else {
                job.closed.add(port);
                if (--job.open > 0) {
                    return;
                }
                JOBS.remove(jobId);
                ports = job.closed;
            }
        }
        for (GmPort p : ports) {
            p.close();
        }
    }
}
