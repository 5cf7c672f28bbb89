package org.portals3j.transport.gm.internal.protocol;

/** What registers memory for RMA: gmx_register and gm_deregister_memory of one port (a fake in tests). */
public interface Registrar {

    /**
     * Registers {@code [address, address + length)} and returns its key.
     *
     * @throws IllegalStateException when the library refuses (the message says why)
     */
    long register(long address, long length);

    /** Deregisters a region {@link #register} returned a key for. */
    void deregister(long address, long length);
}
