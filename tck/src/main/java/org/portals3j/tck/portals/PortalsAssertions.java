package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.portals3j.portals.Event;
import org.portals3j.portals.EventKind;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;

/** Assertions on Portals return codes and event sequences. */
public final class PortalsAssertions {

    private PortalsAssertions() {
    }

    /** Asserts that {@code call} fails with exactly {@code expected}. */
    public static void assertCode(ReturnCode expected, ThrowingCallable call) {
        assertThatThrownBy(call)
                .isInstanceOf(PortalsException.class)
                .satisfies(e -> org.assertj.core.api.Assertions.assertThat(((PortalsException) e).code())
                        .as("return code (%s)", String.valueOf(e.getMessage()))
                        .isEqualTo(expected));
    }

    /**
     * Asserts that {@code events} are exactly {@code operations} START/END pairs of the given kinds: each
     * END links to a START that came before it (Portals 3.2 spec §3.9.8.2: an end event's link is its start's
     * sequence). How the pairs of different operations interleave is left open: inline delivery ends each operation
     * before the next starts, a network transport need not.
     */
    public static void assertStartEndPairs(List<Event> events, EventKind start, EventKind end, int operations) {
        assertThat(events).as("events").hasSize(2 * operations);
        assertThat(events).extracting(Event::type).as("event kinds").containsOnly(start, end);
        assertThat(events).filteredOn(e -> e.type() == start).as("%s events", start).hasSize(operations);
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (e.type() == end) {
                long link = e.link();
                assertThat(events.subList(0, i)).as("the %s of %s comes before it", start, e)
                        .anyMatch(s -> s.type() == start && s.sequence() == link);
            }
        }
    }
}
