/**
 * The Isotach shared memory model (digest §2.8, §4.6; report L368-459, L2488-2604): the part of the report that
 * was designed but never implemented. {@link org.portals3j.isotach.internal.smm.SharedMemory} is one host's
 * shared memory: it routes accesses ({@link org.portals3j.isotach.internal.smm.SharedMap}), enforces the
 * sched/assign caveats and the read cap, executes sRefs in isotach order on the local copies with a
 * preallocated pending-read table ({@code PendingReadTable}), and fills the application's lvars when read
 * responses ({@link org.portals3j.isotach.internal.smm.ReadResponseCodec}) arrive. The engine owns transport,
 * ordering and isochrons and calls it on the host thread.
 */
package org.portals3j.isotach.internal.smm;
