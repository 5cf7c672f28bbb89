package org.portals3j.launcher.ranks;

import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;

/**
 * Two ranks that only keep their udp endpoints running (a Portals library on each, idle), for a test that stops rank 1
 * longer than the peer
 * timeout. Rank 1 prints its pid, then says when it learns that rank 0 is gone to it. Rank 0 says when it
 * declares rank 1 dead, then stays (its endpoint answering) until its standard input closes.
 */
public final class StopResume {
    private StopResume() {
    }

    public static void main(String[] args) throws Exception {
        try (JobContext job = JobRuntime.join()) {
            new PortalsRank(job); // starts the endpoint: a library on it, idle
            job.barrier();
            int other = 1 - job.rank();
            if (job.rank() == 1) {
                System.out.println("ready pid=" + PortalsRank.pid());
            }
            while (job.transport().isPeerAlive(other)) {
                Thread.sleep(5);
            }
            System.out.println("rank " + other + " is gone");
            if (job.rank() == 0) {
                while (System.in.read() >= 0) {
                    // until the test closes the pipe
                }
            }
        }
    }
}
