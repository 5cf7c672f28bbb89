package org.portals3j.launcher.ranks;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * Rank 0 puts {@code count} messages of {@code bytes} bytes to rank 1, each with a different pattern and an
 * ACK; rank 1 checks every byte of every one. Prints "verified COUNT x BYTES" on rank 1.
 */
public final class Transfer {
    static final int PORTAL = 6;

    private Transfer() {
    }

    public static void main(String[] args) throws Exception {
        int count = Integer.parseInt(args[0]);
        int bytes = Integer.parseInt(args[1]);
        try (JobContext job = JobRuntime.join()) {
            PortalsRank r = new PortalsRank(job);
            MemorySegment buffer = r.allocate(bytes);
            if (job.rank() == 1) {
                MeHandle me = r.portals.meAttach(r.ni, PORTAL, ProcessId.ANY, 0L, 0L, Unlink.RETAIN,
                        InsertPosition.AFTER);
                r.portals.mdAttach(me, MemoryDescriptor.of(buffer).withOptions(MdOption.OP_PUT, MdOption.MANAGE_REMOTE)
                        .withEventQueue(r.eq), Unlink.RETAIN, Unlink.RETAIN);
                job.barrier();
                for (int i = 0; i < count; i++) {
                    r.next(EventKind.PUT_START);
                    long got = r.nextOk(EventKind.PUT_END).mlength();
                    for (long b = 0; b < bytes; b++) {
                        byte want = pattern(i, b);
                        if (got != bytes || buffer.get(ValueLayout.JAVA_BYTE, b) != want) {
                            throw new IllegalStateException("message " + i + ": byte " + b + " of " + got + " is "
                                    + buffer.get(ValueLayout.JAVA_BYTE, b) + ", not " + want);
                        }
                    }
                    job.barrier(); // rank 0 may overwrite the buffer with the next message now
                }
                System.out.println("verified " + count + " x " + bytes);
            } else {
                MdHandle md = r.portals.mdBind(r.ni, MemoryDescriptor.of(buffer).withEventQueue(r.eq));
                job.barrier();
                for (int i = 0; i < count; i++) {
                    for (long b = 0; b < bytes; b++) {
                        buffer.set(ValueLayout.JAVA_BYTE, b, pattern(i, b));
                    }
                    r.portals.put(md, AckRequest.ACK_REQ, r.id(1), PORTAL, 0, 0L, 0L, 0L);
                    r.next(EventKind.SEND_START);
                    r.nextOk(EventKind.SEND_END);
                    r.nextOk(EventKind.ACK);
                    job.barrier();
                }
                System.out.println("sent " + count + " x " + bytes);
            }
            job.barrier();
            r.portals.fini();
        }
    }

    static byte pattern(int message, long index) {
        long x = (message + 1) * 0x9E3779B97F4A7C15L + index * 0xBF58476D1CE4E5B9L;
        return (byte) (x ^ (x >>> 29));
    }
}
