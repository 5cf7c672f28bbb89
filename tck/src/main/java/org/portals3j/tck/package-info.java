/**
 * The Portals3J conformance kit (TCK). Tests are JUnit 5 classes annotated with
 * {@link org.portals3j.tck.SpecAssertion}; they run against the transport named by the system property
 * {@value org.portals3j.tck.TckTransport#PROPERTY} (default {@code inmem}).
 *
 * <h2>What a pass claims</h2>
 * <ul>
 * <li>Every assertion of the catalogue ({@link org.portals3j.tck.catalogue.Catalogue}) says how it is checked:
 *     {@code kit} (black-box, by the tests that name it), {@code partial} (by such tests, but the kit sees only
 *     part of it: the note says what it cannot see and where that part is checked, if anywhere), {@code engine}
 *     (white-box, by the engine unit test the note names) or {@code no} (the note says why). Every report shows a
 *     pass of a {@code partial} assertion as "partial", never as "passed".</li>
 * <li>A test of an assertion accepts every behaviour the spec allows. Where the spec leaves a choice open, this
 *     implementation's choice (our choice, with the spec's section) is pinned by a separate test annotated
 *     {@link org.portals3j.tck.Resolves} with the open point's id, e.g. {@code @Resolves("A-36")} for which events
 *     a full event queue loses.</li>
 * </ul>
 *
 * <h2>Randomised tests</h2>
 * A randomised test draws a new seed for every run from {@link org.portals3j.tck.TckSeed}, prints it
 * ({@code RandomSharedMemoryTest, 4 hosts: seed N (replay with -Dportals3j.tck.seed=N)}) and names it in every
 * failure. The system property {@value org.portals3j.tck.TckSeed#PROPERTY} replays a run: {@code mvn -pl tck verify
 * -Dportals3j.tck.seed=N -Dtest=RandomSharedMemoryTest}, or {@code portals tck --assertion I-079 --seed N}. The kit's
 * other tests that use random numbers take a fixed seed written in the test, so every run replays them.
 */
package org.portals3j.tck;
