/**
 * The Portals3J conformance kit (TCK). Tests are JUnit 5 classes annotated with
 * {@link org.portals3j.tck.SpecAssertion}; they run against the transport named by the system property
 * {@value org.portals3j.tck.TckTransport#PROPERTY} (default {@code inmem}).
 */
package org.portals3j.tck;
