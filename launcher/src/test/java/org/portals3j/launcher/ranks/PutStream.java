package org.portals3j.launcher.ranks;

import org.portals3j.portals.AckRequest;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.InsertPosition;
import org.portals3j.portals.MdHandle;
import org.portals3j.portals.MdOption;
import org.portals3j.portals.MeHandle;
import org.portals3j.portals.MemoryDescriptor;
import org.portals3j.portals.ProcessId;
import org.portals3j.portals.Unlink;
import org.portals3j.runtime.JobContext;
import org.portals3j.runtime.JobRuntime;

/**
 * Rank 0 puts {@code count} times to rank 1, one every {@code intervalMillis}, each with an ACK, and
 * insists that every put ends well (SEND_END and ACK, ni_fail_type OK). Rank 1 prints its pid (so a test
 * can stop it) and counts the PUT_ENDs.
 */
public final class PutStream {
    static final int PORTAL = 5;

    private PutStream() {
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        long intervalMillis = Long.parseLong(args[1]);
        try (JobContext job = JobRuntime.join()) {
            PortalsRank r = new PortalsRank(job);
            if (job.rank() == 1) {
                MeHandle me = r.portals.meAttach(r.ni, PORTAL, ProcessId.ANY, 0L, 0L, Unlink.RETAIN,
                        InsertPosition.AFTER);
                r.portals.mdAttach(me, MemoryDescriptor.of(r.allocate(64))
                        .withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE).withEventQueue(r.eq),
                        Unlink.RETAIN, Unlink.RETAIN);
                job.barrier();
                System.out.println("ready pid=" + PortalsRank.pid());
                for (int i = 0; i < count; i++) {
                    r.next(EventKind.PUT_START);
                    r.nextOk(EventKind.PUT_END);
                }
                System.out.println("received " + count);
            } else {
                MdHandle md = r.portals.mdBind(r.ni, MemoryDescriptor.of(r.allocate(64)).withEventQueue(r.eq));
                job.barrier();
                int acks = 0;
                for (int i = 0; i < count; i++) {
                    r.portals.put(md, AckRequest.ACK_REQ, r.id(1), PORTAL, 0, 0L, 0L, i);
                    r.next(EventKind.SEND_START);
                    r.nextOk(EventKind.SEND_END);
                    r.nextOk(EventKind.ACK);
                    acks++;
                    Thread.sleep(intervalMillis);
                }
                System.out.println("sent " + count + " acked " + acks);
            }
            job.barrier();
            r.portals.fini();
        }
    }
}
