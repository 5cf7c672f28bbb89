package org.portals3j.transport.udp.internal.endpoint;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;
import org.portals3j.transport.Deposit;
import org.portals3j.transport.PollingHandler;

/** A handler that accepts every payload into fresh memory and records messages, completions and failures. */
final class RecordingHandler implements PollingHandler {
    /** A message delivered: its source, the first int of its header, and the bytes deposited. */
    record Message(int source, int id, byte[] payload, boolean failed) {
    }

    final List<Message> messages = new ArrayList<>();
    final Map<Long, Boolean> completions = new LinkedHashMap<>();
    final List<Integer> failedPeers = new ArrayList<>();
    int pollersGone;
    /** Thrown from {@link #onDeposited} when set (a handler that fails). */
    @Nullable Error throwOnDeposited;
    private int id;

    @Override
    public void onHeader(int source, MemorySegment header, int headerLength, long payloadLength, Deposit deposit) {
        id = headerLength >= 4 ? header.get(ValueLayout.JAVA_INT_UNALIGNED, 0) : -1;
        if (payloadLength > 0) {
            deposit.accept(MemorySegment.ofArray(new byte[(int) payloadLength]), 0, payloadLength);
        }
    }

    @Override
    public void onDeposited(int source, Deposit deposit) {
        Error e = throwOnDeposited;
        if (e != null) {
            throw e;
        }
        byte[] bytes = deposit.accepted() ? deposit.segment().asSlice(deposit.offset(), deposit.deposited())
                .toArray(ValueLayout.JAVA_BYTE) : new byte[0];
        messages.add(new Message(source, id, bytes, deposit.failed()));
    }

    @Override
    public void onSendComplete(long token, boolean delivered) {
        completions.put(token, delivered);
    }

    @Override
    public void onPeerFailure(int peer) {
        failedPeers.add(peer);
    }

    @Override
    public void onPollersGone() {
        pollersGone++;
    }
}
