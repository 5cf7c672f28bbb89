package org.portals3j.fabric;

/** The {@code FI_*} address formats ({@code info->addr_format}), in C order; {@code UNKNOWN} for a newer one. */
public enum AddressFormat {
    FORMAT_UNSPEC, SOCKADDR, SOCKADDR_IN, SOCKADDR_IN6, SOCKADDR_IB, ADDR_PSMX, ADDR_GNI, ADDR_BGQ, ADDR_MLX,
    /** {@code FI_ADDR_STR}: a NUL-terminated string, as shm uses. */
    ADDR_STR, ADDR_PSMX2, ADDR_IB_UD, ADDR_EFA, ADDR_PSMX3, ADDR_OPX, ADDR_CXI, UNKNOWN;

    static AddressFormat of(int v) {
        AddressFormat[] all = values();
        return v >= 0 && v < all.length - 1 ? all[v] : UNKNOWN;
    }
}
