package org.portals3j.transport.gm.internal.protocol;

import java.util.ArrayList;
import java.util.List;

/** A registrar that records what is registered, and refuses when told to. */
final class FakeRegistrar implements Registrar {
    /** Registered regions as {address, length, key}. */
    final List<long[]> live = new ArrayList<>();
    int registrations;
    int deregistrations;
    boolean refuse;
    private long nextKey = 100;

    @Override
    public long register(long address, long length) {
        if (refuse) {
            throw new IllegalStateException("gmx_register refused");
        }
        registrations++;
        live.add(new long[] {address, length, nextKey});
        return nextKey++;
    }

    @Override
    public void deregister(long address, long length) {
        deregistrations++;
        boolean removed = live.removeIf(r -> r[0] == address && r[1] == length);
        if (!removed) {
            throw new IllegalStateException("deregistered a region never registered");
        }
    }
}
