package org.portals3j.transport.gm.internal.endpoint;

import org.portals3j.transport.MessageHandler;
import org.portals3j.transport.gm.internal.nativeaccess.GmPort;

/**
 * Failure of a peer, once, from any thread: its sends completed not delivered, its staged memory released, the handler
 * told; and the endpoint's own failure of every send at close, and the bounce buffers freed after its port closed.
 */
final class PeerFailures {
    /** Why a peer that said BYE failed: the orderly end of a job, logged at DEBUG only. */
    static final String CLOSED = "it closed its endpoint";

    private PeerFailures() {
    }

    /** Records that {@code peer} failed, fails its sends and tells the handler, once. Any thread. */
    static void peerFailed(GmEndpoint e, int peer, String why) {
        if (peer == e.rank) {
            return; // this endpoint's own port: it fails as a whole, in close
        }
        Peer p = e.peers[peer];
        long[] tokens;
        int count = 0;
        p.lock.lock();
        try {
            if (p.failed) {
                return;
            }
            p.failed = true;
            tokens = new long[p.slots.length]; // the failure path may allocate
            for (SendSlot s : p.slots) {
                if (s.inUse && !s.completed) {
                    s.completed = true;
                    tokens[count++] = s.token;
                }
                if (s.inUse && !s.withGm) {
                    e.release(s.registration, s.bounce);
                    p.freeSlot(s);
                }
            }
            p.clearWaiting();
            p.room.signalAll();
        } finally {
            p.lock.unlock();
        }
        GmEndpoint.LOG.log(why.equals(CLOSED) ? System.Logger.Level.DEBUG : System.Logger.Level.INFO,
                "rank " + e.rank + ": rank " + peer + " failed: " + why);
        if (!e.closed()) {
            e.port.dropSends(GmPort.LOW_PRIORITY, p.node, p.gmPort, Contexts.of(Contexts.DROP, peer, 0));
            e.port.dropSends(GmPort.HIGH_PRIORITY, p.node, p.gmPort, Contexts.of(Contexts.DROP, peer, 0));
        }
        for (int i = 0; i < count; i++) {
            e.complete(tokens[i], false);
        }
        MessageHandler h = e.handler;
        if (h != null && !e.closed()) { // the handler of a closed endpoint is told nothing more (its layer is gone)
            try {
                h.onPeerFailure(peer);
            } catch (RuntimeException x) {
                GmEndpoint.LOG.log(System.Logger.Level.ERROR, "rank " + e.rank + ": handler threw from onPeerFailure",
                        x);
            }
        }
    }

    /** Fails every send not completed yet and releases what was staged for it (at close). */
    static void failAllSends(GmEndpoint e) {
        for (Peer p : e.peers) {
            long[] tokens = new long[p.slots.length];
            int count = 0;
            p.lock.lock();
            try {
                for (SendSlot s : p.slots) {
                    if (s.inUse && !s.completed) {
                        s.completed = true;
                        tokens[count++] = s.token;
                    }
                    if (s.inUse && s.registration != null) {
                        e.cache.release(s.registration);
                        s.registration = null;
                    }
                }
                p.clearWaiting();
            } finally {
                p.lock.unlock();
            }
            for (int i = 0; i < count; i++) {
                e.complete(tokens[i], false);
            }
        }
    }

    /** Frees the bounce buffers of sends after the port closed (their registrations went with it). */
    static void abandonBounces(GmEndpoint e) {
        for (Peer p : e.peers) {
            p.lock.lock();
            try {
                for (SendSlot s : p.slots) {
                    if (s.bounce != null) {
                        s.bounce.abandon();
                        s.bounce = null;
                    }
                }
            } finally {
                p.lock.unlock();
            }
        }
    }
}
