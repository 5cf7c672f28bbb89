package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;

/** A send: eager (done at SEND_END) or by rendezvous (done when the receiver's get has read it: GET_END). */
public final class SendOperation extends Operation {
    /** Whether it went by rendezvous (its MD is attached on the get portal) rather than eagerly (bound MD). */
    boolean rendezvous;

    public SendOperation(MemorySegment buffer) {
        super(buffer);
    }
}
