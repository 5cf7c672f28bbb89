package org.portals3j.isotach.internal;

import java.util.Set;
import org.portals3j.transport.Polling;
import org.portals3j.transport.Transport;
import org.portals3j.transport.TransportCapability;

/**
 * A test transport with a thread of its own that reports its pollers gone, as the engine's tests assume: the
 * tests say when the pollers have gone themselves. Polling does nothing.
 */
public interface PollersGoneByTests extends Transport, Polling {
    @Override
    default Set<TransportCapability> capabilities() {
        return Set.of(TransportCapability.REPORTS_POLLERS_GONE);
    }

    @Override
    default boolean poll() {
        return false;
    }

    @Override
    default void pollingStopped() {
    }
}
