package org.portals3j.portals.internal.engine;

import java.lang.foreign.MemorySegment;
import org.portals3j.portals.internal.wire.MessageHeader;
import org.portals3j.transport.internal.SpinLock;

/**
 * The way requests (puts and gets) go to one peer. Its lock is held from posting SEND_START until the
 * transport has the message, so the order of SEND_START events equals the order the peer sees the
 * requests in: the one ordering guarantee of Portals 3.2 spec §3.9.2 (P-207). Responses (acks, replies) do not take it.
 */
final class SendChannel {
    final SpinLock lock = new SpinLock();
    final MessageHeader header = new MessageHeader();
    final MemorySegment buffer = header.segment();
}
