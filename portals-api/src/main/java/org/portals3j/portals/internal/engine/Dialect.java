package org.portals3j.portals.internal.engine;

/**
 * Which specification a library follows. Fixed when the library is created:
 * {@link org.portals3j.portals.Portals} makes a 3.2 library, {@link org.portals3j.portals.Portals33} a
 * 3.3 one. The differences are listed in the package documentation of {@code org.portals3j.portals}.
 */
public enum Dialect {
    /** The Portals 3.2 Message Passing Interface, Revision 1.1 (the project's spec). */
    PORTALS_3_2,
    /** The Portals 3.3 Message Passing Interface (SAND2006-0420), as its reference implementation reads it. */
    PORTALS_3_3
}
