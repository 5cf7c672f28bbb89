package org.portals3j.fabric;

/**
 * The {@code mr_mode} bits of a domain. The binding asks for {@code LOCAL | VIRT_ADDR | ALLOCATED | PROV_KEY} and
 * honours whichever come back: descriptors are always passed, keys are read back with {@code fi_mr_key}, and
 * {@link MemoryRegion#remoteAddress(long)} gives an offset or a virtual address as {@code VIRT_ADDR} says.
 */
public final class MrMode {
    public static final int LOCAL = 0x4;
    public static final int RAW = 0x8;
    public static final int VIRT_ADDR = 0x10;
    public static final int ALLOCATED = 0x20;
    public static final int PROV_KEY = 0x40;
    public static final int ENDPOINT = 0x200;

    /** What the binding requests (gm-libfabric.md section 2.6, without ENDPOINT, which it does not bind). */
    static final int REQUESTED = LOCAL | VIRT_ADDR | ALLOCATED | PROV_KEY;

    private MrMode() {
    }
}
