package org.portals3j.launcher.ranks;

import org.portals3j.portals.AckRequest;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;

/**
 * Rank 1 sets nothing up and waits to be killed. Rank 0 sends it a Get that nothing matches (dropped,
 * never answered), says so, and then waits: when rank 1 dies the Get must end with REPLY_START and
 * REPLY_FAIL (PEER_DEAD), and a Put sent afterwards with SEND_START and SEND_FAIL (PEER_DEAD).
 */
public final class PeerDeath {
    private PeerDeath() {
    }

    public static void main(String[] args) throws Exception {
        try (JobContext job = JobRuntime.join()) {
            PortalsRank r = new PortalsRank(job);
            job.barrier();
            if (job.rank() == 1) {
                System.out.println("ready pid=" + PortalsRank.pid());
                Thread.sleep(Long.MAX_VALUE);
            }
            MdHandle md = r.portals.mdBind(r.ni, MemoryDescriptor.of(r.allocate(8)).withEventQueue(r.eq));
            r.portals.get(md, r.id(1), 9, 0, 0L, 0L);
            System.out.println("get pending");
            r.next(EventKind.REPLY_START);
            Event fail = r.next(EventKind.REPLY_FAIL);
            System.out.println("REPLY_FAIL " + fail.niFailType() + " alive=" + job.transport().isPeerAlive(1));
            r.portals.put(md, AckRequest.ACK_REQ, r.id(1), 9, 0, 0L, 0L, 0L);
            r.next(EventKind.SEND_START);
            System.out.println("SEND_FAIL " + r.next(EventKind.SEND_FAIL).niFailType());
            r.portals.fini();
        }
    }
}
