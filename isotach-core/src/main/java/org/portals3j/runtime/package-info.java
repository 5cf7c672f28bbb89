/**
 * The job model: a job is {@code N} ranks; each rank has a Portals process id ({@code nid, pid}),
 * a user id, and an endpoint on the job's transport. The {@link org.portals3j.runtime.PeerTable} maps
 * ranks to process ids and back.
 *
 * <p><b>Node ids.</b> A node id names an endpoint of the fabric: the runtime gives rank {@code r} the
 * node id {@code r}. Routing therefore needs the node id only; the target checks the pid on arrival,
 * as chapter 4 of the Portals 3.2 spec describes (L15027), which is what lets a process take a
 * well-known pid at {@code PtlNIInit} without telling anyone.
 */
package org.portals3j.runtime;
