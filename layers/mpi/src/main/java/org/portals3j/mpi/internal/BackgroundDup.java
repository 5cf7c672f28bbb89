package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * A nonblocking {@code iDup} (MPI 4.1 section 7.4.2): the context-id agreement of {@link Communicators#dup} (of {@link
 * InterCommunicators#dup} for an intercommunicator) runs on a thread of its own, so that the caller goes on at once and
 * a rank may send, receive or wait on other requests while the other members have not called {@code iDup} yet. Its
 * number among the parent's agreements, the parent's attributes and hints are taken when the call is made, in call
 * order, so the agreement matches the other members' {@code iDup} and never another collective. Complete when the new
 * communicator's state is there; an agreement that fails (no context id left) completes with its error.
 */
public final class BackgroundDup extends Operation {
    private volatile @Nullable CommState result;

    private BackgroundDup() {
        super(MemorySegment.NULL);
    }

    /**
     * Starts duplicating {@code parent} in the background; {@code finish} turns the agreed state into the new
     * communicator's (sets its hints, for {@code dupWithInfo}).
     */
    public static BackgroundDup start(CommState parent, ContextIds ids, Function<CommState, CommState> finish) {
        BackgroundDup op = new BackgroundDup();
        long key = Communicators.agreementKey(parent);
        CommState.Cached cached = parent.cached();
        parent.engine().backgroundStarted();
        Thread.ofPlatform().daemon().name("mpi-idup-rank-" + parent.engine().rank()).start(() -> {
            try {
                CommState made = parent.isInter() ? InterCommunicators.dup(parent, cached, ids, key)
                        : Communicators.dup(parent, cached, ids, key);
                op.result = finish.apply(made);
            } catch (MpiError e) {
                op.fail(e.errorClass(), String.valueOf(e.getMessage()));
            } catch (RuntimeException e) {
                op.fail(ErrorClass.INTERN, "iDup failed: " + e);
            } finally {
                op.complete();
                parent.engine().backgroundEnded();
            }
        });
        return op;
    }

    /** The new communicator's state once complete without error, else null. */
    public @Nullable CommState result() {
        return result;
    }
}
