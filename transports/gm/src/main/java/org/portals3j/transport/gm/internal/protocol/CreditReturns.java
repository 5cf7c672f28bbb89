package org.portals3j.transport.gm.internal.protocol;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiver's side of one peer's credits: buffers reposted for that peer and not yet reported. The receive path
 * adds; a data message to the peer carries what has accumulated; when it reaches half the peer's credits and no
 * data message took it, the receive path sends it alone (a CREDIT message). Thread-safe.
 */
public final class CreditReturns {
    private final AtomicInteger pending = new AtomicInteger();
    private final int due;

    /** {@code credits}: how many the peer was given. */
    public CreditReturns(int credits) {
        this.due = Math.max(1, credits / 2);
    }

    /** One buffer of the peer's was reposted. */
    public void reposted() {
        pending.incrementAndGet();
    }

    /** Takes everything pending, for a message to the peer. */
    public int take() {
        return pending.getAndSet(0);
    }

    /** Whether enough is pending that it must go out on its own. */
    public boolean due() {
        return pending.get() >= due;
    }
}
