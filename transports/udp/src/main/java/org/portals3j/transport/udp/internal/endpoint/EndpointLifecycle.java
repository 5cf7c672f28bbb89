package org.portals3j.transport.udp.internal.endpoint;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The udp endpoint's lifecycle: one {@link State}, changed only by {@link #moveTo}, which refuses a move that
 * skips a state. Any thread; each move is atomic.
 */
final class EndpointLifecycle {
    /** In order: a state once left is never entered again. */
    enum State {
        /** The socket is bound and its address published; {@code start} was not called. */
        OPEN,
        /** Started: the protocol thread (or a polling application thread) runs the receive path. */
        RUNNING,
        /** Something escaped the receive path: every peer and every send is being failed. */
        FAILING,
        /** Failed: the endpoint acts as closed; {@code close()} still releases the socket. */
        FAILED,
        /** Closed by {@code close()}. */
        CLOSED;

        /** Whether {@code next} directly follows this state. */
        boolean leadsTo(State next) {
            return switch (this) {
                case OPEN -> next == RUNNING || next == CLOSED;
                case RUNNING -> next == FAILING || next == CLOSED;
                case FAILING -> next == FAILED || next == CLOSED;
                case FAILED -> next == CLOSED;
                case CLOSED -> false;
            };
        }
    }

    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);

    State state() {
        return state.get();
    }

    /** Whether the receive path may run (started, neither failing nor closed). */
    boolean isRunning() {
        return state.get() == State.RUNNING;
    }

    /** Whether the endpoint acts as closed (closed, or failed): sends are refused, peers count as gone. */
    boolean isClosed() {
        State s = state.get();
        return s == State.FAILED || s == State.CLOSED;
    }

    /** Whether the endpoint failed or is failing, or closed: its peers count as gone from the first of these. */
    boolean isFailingOrClosed() {
        return state.get().compareTo(State.FAILING) >= 0;
    }

    /**
     * Moves to {@code next}; false when the endpoint is there or past it already (another thread moved first, or it
     * closed meanwhile). A move that would skip a state is a bug: IllegalStateException.
     */
    boolean moveTo(State next) {
        while (true) {
            State current = state.get();
            if (current.compareTo(next) >= 0) {
                return false;
            }
            if (!current.leadsTo(next)) {
                throw new IllegalStateException("udp endpoint: no transition from " + current + " to " + next);
            }
            if (state.compareAndSet(current, next)) {
                return true;
            }
        }
    }
}
