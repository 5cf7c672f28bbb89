package org.portals3j.tck.portals;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.portals3j.portals.PortalsException;
import org.portals3j.portals.ReturnCode;

/** Assertions on Portals return codes. */
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
}
