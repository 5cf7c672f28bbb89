package org.portals3j.tck.runner;

import java.util.Set;

/**
 * One test of the kit, as discovered: the same on every transport.
 *
 * @param uniqueId the JUnit Platform's unique id of the test (stable from run to run)
 * @param className the test class
 * @param methodName the test method
 * @param displayName what JUnit shows for it (with the invocation, for a parameterised test)
 * @param assertionIds the ids its {@code @SpecAssertion}s name, on the method and on its class
 */
public record KitTest(String uniqueId, String className, String methodName, String displayName,
        Set<String> assertionIds) {

    public KitTest {
        assertionIds = Set.copyOf(assertionIds);
    }

    /**
     * {@code SimpleClassName.method}, and for an invocation of a parameterised test its display name too
     * ({@code RandomIsochronTest.randomIsochrons [2] 4 hosts}): short enough for a progress line or a report row.
     */
    public String shortName() {
        String name = className.substring(className.lastIndexOf('.') + 1) + "." + methodName;
        return uniqueId.contains("-invocation:#") ? name + " " + displayName : name;
    }
}
