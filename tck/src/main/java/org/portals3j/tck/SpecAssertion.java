package org.portals3j.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the conformance assertions a test checks: the ids of the kit's catalogues ({@code P-001} … for
 * Portals 3.2, {@code I-001} … for Isotach, {@code L-001} … for LAPI). Ids are stable: a new assertion gets a new id.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface SpecAssertion {
    /** The assertion ids, e.g. {@code "P-061"}. */
    String[] value();
}
