package org.portals3j.fabric;

import java.util.List;

/** Run by {@link LoadingTest} in a child JVM: prints whether the binding loaded, why not, and what a call says. */
public final class AvailabilityProbe {
    private AvailabilityProbe() {
    }

    public static void main(String[] args) {
        System.out.println("available=" + Fabric.isAvailable());
        System.out.println("reason=" + Fabric.unavailableReason());
        try {
            List<FabricInfo> infos = FabricInfo.query(FabricInfo.Hints.rdm("tcp;ofi_rxm"));
            System.out.println("query=" + infos.size());
        } catch (IllegalStateException e) {
            System.out.println("query failed: " + e.getMessage());
        }
    }
}
