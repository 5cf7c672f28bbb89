package org.portals3j.tck;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the open points of a spec (our choices on points the spec leaves open: {@code A-01} …, and {@code I-01} … of
 * what the Portals text leaves to the implementation) whose resolution a test pins down. The resolution itself is
 * documented where the engine implements it. Where the spec allows several behaviours, the test of the assertion
 * ({@link SpecAssertion}) accepts them all and a {@code @Resolves} test pins this implementation's.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Resolves {
    String[] value();
}
