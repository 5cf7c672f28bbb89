package org.portals3j.portals.internal.engine;

/**
 * The side of the engine (initiator or target) whose message {@link MessageSender} hands over, told what became
 * of it before the transport reports. Both methods take the engine lock; neither is called with it held.
 */
interface SendingSide {
    /** The staged payload of the op {@code token} names is copied: the MD may be reused, the END event logged now. */
    void stagedPayloadCopied(long token);

    /** The transport refused the message of the op {@code token} names: it ends as an undelivered send would. */
    void sendRefused(long token);
}
