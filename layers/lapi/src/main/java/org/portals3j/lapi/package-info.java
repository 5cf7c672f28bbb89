/**
 * LAPI-style active messages on the public Portals 3.2 API (lapi-digest.md, lapi-amsend.txt).
 *
 * <p>lapi-core: the table from every LAPI function to its method, the protocols (eager and rendezvous, the
 * counters' triggers, Put/Get, fences), the threads, and every choice where the man pages are silent (O-01..O-14),
 * each citing the digest's section.
 */

package org.portals3j.lapi;
