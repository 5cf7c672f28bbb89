package org.portals3j.transport.udp.internal.endpoint;

import java.util.Arrays;
import org.portals3j.transport.Transport;
import org.portals3j.transport.udp.internal.reliability.OutgoingMessage;
import org.portals3j.transport.udp.internal.reliability.SendWindow;

/**
 * Send completions gathered under a peer's lock and reported after it is released (the handler must
 * never be called with a lock held that its callees might need). Grows to its working size once, then
 * allocates nothing. Owned by one thread at a time.
 */
final class CompletionList implements SendWindow.CompletionSink {
    private long[] tokens = new long[64];
    private boolean[] delivered = new boolean[64];
    private int size;
    private final SendWindow window;
    private final SendBound bound;
    private final boolean forceFailure;

    /**
     * @param window       where completed messages go back to the pool
     * @param bound        what counts them as unacknowledged until now
     * @param forceFailure report every completion as not delivered (peer dead, endpoint closing)
     */
    CompletionList(SendWindow window, SendBound bound, boolean forceFailure) {
        this.window = window;
        this.bound = bound;
        this.forceFailure = forceFailure;
    }

    @Override
    public void completed(OutgoingMessage message) {
        if (message.token != Transport.NO_NOTIFY) {
            if (size == tokens.length) {
                tokens = Arrays.copyOf(tokens, size * 2);
                delivered = Arrays.copyOf(delivered, size * 2);
            }
            tokens[size] = message.token;
            delivered[size] = !forceFailure && !message.failed;
            size++;
        }
        bound.removed(message.payloadLength);
        window.release(message);
    }

    /** Reports and forgets what was gathered; call without holding the peer's lock. */
    void dispatch(UpperLayer upper) {
        for (int i = 0; i < size; i++) {
            upper.onSendComplete(tokens[i], delivered[i]);
        }
        size = 0;
    }

    boolean isEmpty() {
        return size == 0;
    }
}
