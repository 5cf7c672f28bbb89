package org.portals3j.transport;

/**
 * The transport's side of one source's {@link Deposit}: resets it for each message and records what landed. The
 * upper layer is handed only {@link #deposit()}, which it can fill in but not mark deposited or failed.
 */
public final class DepositWriter {
    private final Deposit deposit = new Deposit();

    /** The deposit this writer owns, for {@link MessageHandler#onHeader} and {@link MessageHandler#onDeposited}. */
    public Deposit deposit() {
        return deposit;
    }

    /** Resets the deposit before a new message's header is offered, and returns it. */
    public Deposit reset() {
        Deposit d = deposit;
        d.discard();
        d.failed = false;
        d.deposited = 0;
        if (d.attachment != null) {
            d.attachment = null; // see the Deposit's class documentation on reference stores
        }
        return d;
    }

    /** Records that {@code bytes} more bytes landed. */
    public void addDeposited(long bytes) {
        deposit.deposited += bytes;
    }

    /** Marks the transfer failed. */
    public void fail() {
        deposit.failed = true;
    }
}
