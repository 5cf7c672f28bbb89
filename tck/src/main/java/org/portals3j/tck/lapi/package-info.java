/**
 * The kit's tests of the LAPI layer ({@code org.portals3j.lapi}): the assertions L-001..L-104,
 * catalogued in {@code lapi.tsv}, one test class per family (error codes, arguments, header and
 * completion handlers, ret_flags, counters, ordering, data delivery, addresses, load, the surrounding calls, the
 * Java mapping) and a randomised test seeded through {@link org.portals3j.tck.TckSeed}.
 *
 * <p>Each test builds a job of 2 to 4 LAPI tasks ({@code LapiJob}), each a context on its own Portals library on
 * the transport under test ({@link org.portals3j.tck.TckTransport}), all in this JVM. A task names another task's
 * handler and counters by the addresses that task issued, as a program does after {@code LAPI_Address_init}.
 * Waits are conditions with the kit's patience, never sleeps; "must not happen" is watched for the transport's
 * quiet period.
 *
 * <p>Where the man page leaves a choice open, an assertion carries our choice ("O-xx" in the catalogue's sources
 * column names the open point) and the kit checks the layer's documented one (the package documentation of
 * {@code org.portals3j.lapi}). The Java binding
 * throws {@link org.portals3j.lapi.LapiException} carrying the man page's code where C returns it (L-101), and
 * every error test checks the code the exception carries.
 */

package org.portals3j.tck.lapi;
