package org.portals3j.portals;

/**
 * {@code ptl_interface_t}: which network interface {@link Portals#niInit} initialises (Portals 3.2 spec §3.2.5).
 *
 * <p>Which interfaces exist is site-defined (I-01). Here every process has
 * {@link PortalsConfig#interfaces()} interfaces, numbered from 0, all carried over the job's transport;
 * interface {@code i} of every process forms one network. {@link #DEFAULT} is interface 0.
 */
public record InterfaceId(int value) {

    /** {@code PTL_IFACE_DEFAULT}. */
    public static final InterfaceId DEFAULT = new InterfaceId(0);

    public static InterfaceId of(int value) {
        return new InterfaceId(value);
    }
}
