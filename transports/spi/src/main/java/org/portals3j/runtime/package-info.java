/**
 * How a job starts: a rank learns its job from its launcher's environment ({@link org.portals3j.runtime.JobRuntime}:
 * {@code portals run}, Slurm, Open MPI, or a singleton), meets the other ranks at a rendezvous and opens its endpoint
 * on the job's transport ({@link org.portals3j.runtime.JobContext}); {@link org.portals3j.runtime.LocalJob} runs a
 * whole job as threads of one JVM. The job model itself (job, ranks, key, rendezvous) is part of the transport SPI,
 * {@code org.portals3j.transport}, since it is what a transport is opened for; this package builds on it.
 *
 * <p><b>Node ids.</b> The runtime gives rank {@code r} the node id {@code r} (see
 * {@link org.portals3j.transport.Job}).
 *
 * <p><b>Rank 0's rendezvous under a scheduler.</b> Rank 0 ({@code SLURM_PROCID} or {@code OMPI_COMM_WORLD_RANK} 0)
 * serves the rendezvous on {@code PORTALS_RENDEZVOUS}, which every rank is given. Under Slurm a value of
 * {@code :PORT} names that port on the first host of {@code SLURM_STEP_NODELIST} (else {@code SLURM_JOB_NODELIST}):
 * Slurm's block and cyclic distributions place task 0 there, and srun is often run on a login node, whose
 * {@code $(hostname)} is no host of the job. Open MPI tells a process no host list, so there the host is given.
 * Rank 0 of a job known to span hosts ({@code SLURM_STEP_NUM_NODES} or {@code SLURM_NNODES} above 1, or
 * {@code OMPI_COMM_WORLD_LOCAL_SIZE} below {@code OMPI_COMM_WORLD_SIZE}) refuses a rendezvous host that resolves to a
 * loopback address (Debian's {@code /etc/hosts} maps the host name to 127.0.1.1): the other hosts could not reach it,
 * and they would wait out their timeout instead of rank 0 saying why.
 *
 * <h2>Oversubscription: when a waiting rank gives its core away</h2>
 * A job decides once, when a rank joins, whether its ranks on this host outnumber the host's cores
 * ({@link org.portals3j.transport.Oversubscription}); the endpoint ({@code EndpointConfig.oversubscribed}), the
 * Portals library ({@code PortalsConfig.oversubscribed}) and the MPI layer's waits are told, and read nothing
 * global again. Oversubscribed, the default back-off spins 20 rounds rather than 2000 before it yields and parks,
 * and the udp protocol thread yields where it spun, so a waiting rank does not keep a core from the rank it waits
 * for (two ranks on two cores are not oversubscribed and wait as before). The peer is Open MPI's MCA parameter
 * {@code mpi_yield_when_idle}, which Open MPI turns on by itself when a node runs more processes than it has slots
 * (Open MPI documentation, "Oversubscribing nodes" and the {@code mpi_yield_when_idle} parameter).
 * <ul>
 * <li>Ranks on the host: all of them for an in-JVM job ({@link org.portals3j.runtime.LocalJob},
 *     {@code JobContext.inJvm}); for a process, {@code PORTALS_LOCAL_SIZE} ({@code portals run} sets it),
 *     else {@code OMPI_COMM_WORLD_LOCAL_SIZE}, else {@code SLURM_NTASKS_PER_NODE}, else 1 (unknown: not
 *     oversubscribed by count).</li>
 * <li>Cores: {@link java.lang.Runtime#availableProcessors}, which honours the affinity mask ({@code taskset}) and
 *     the container's CPU limit.</li>
 * <li>Override: the system property {@code portals.idle.oversubscribed}, else the variable
 *     {@code PORTALS_IDLE_OVERSUBSCRIBED} ({@code auto}, the default, {@code true} or {@code false}), else Open
 *     MPI's {@code OMPI_MCA_mpi_yield_when_idle} ({@code 1} or {@code 0}). Only the default idle mode,
 *     {@code backoff}, adapts; {@code spin}, {@code yield} and {@code park} are explicit choices and stay.</li>
 * </ul>
 *
 * <h2>The TCP rendezvous: admission, and what it guarantees</h2>
 * A multi-process job's ranks meet at a TCP rendezvous ({@link org.portals3j.runtime.RendezvousServer}, served by
 * {@code portals run} on {@code 127.0.0.1}, or by rank 0 on {@code PORTALS_RENDEZVOUS} under Slurm and Open MPI).
 * It admits a connection as rank {@code r} only after a mutual challenge-response on the job key (protocol
 * version 2):
 * <ol>
 * <li>The rank sends its claims (job id, rank, size) and a fresh 32-byte nonce. The rendezvous answers with a fresh
 *     nonce of its own and its proof: HMAC-SHA256 under the admission key
 *     {@code K = HMAC-SHA256(job key, "portals3j rendezvous admission")} over a label, the protocol version, both
 *     nonces and the claims.</li>
 * <li>The rank checks that proof (in constant time) before it says anything else; a rendezvous that cannot prove
 *     the key gets nothing more than the HELLO (and an {@code ABORT}), so a rank never publishes to an impostor.
 *     Then the rank sends its own proof (the same transcript under another label), which the rendezvous checks
 *     in constant time.</li>
 * <li>Every later line, both ways, carries a 16-byte tag: HMAC-SHA256 of the line and its sequence number, under a
 *     key per direction derived from {@code K} and both nonces. A line whose tag is wrong drops the connection.</li>
 * <li>Only then are the claims checked (the job's id and size, a rank inside the job and not connected yet), and,
 *     under {@code portals run}, the connecting process (see the launcher's documentation).</li>
 * </ol>
 * <p><b>Refusals</b> say what is wrong in terms the rank already knows and never the values the rendezvous expects
 * (job id, size, key or anything derived from it); the rendezvous logs those on its side. A rank with another key
 * is told {@code rank 1 cannot join the job at HOST:PORT: that rendezvous does not hold this rank's job key ...};
 * the rendezvous logs {@code refused rank 1 from ADDRESS: its PORTALS_JOB_KEY differs from this job's}. A rank of
 * protocol version 1 is told to run every rank with the same Portals3J version (and so is a version 2 rank at a
 * version 1 rendezvous).
 * <p><b>What others can and cannot do.</b>
 * <ul>
 * <li>Anyone who can reach the port (a local user of the host under {@code portals run}; anyone on the network
 *     under Slurm or Open MPI) cannot be admitted without the key, learns nothing from a refusal but the protocol
 *     version, and cannot use anything they record: the rendezvous's nonce is fresh for every connection, so a
 *     replayed proof is wrong. They can hold at most 64 connections that have not finished the handshake (a new one
 *     evicts the oldest; a rank whose handshake was cut so tries again until {@code PORTALS_RENDEZVOUS_TIMEOUT}),
 *     each for at most 20 s and with lines of at most 1 KiB; what they make the rendezvous log is rate-limited (a
 *     burst of 20 lines, then one a second, with a count of those held back).</li>
 * <li>An attacker on the path sees the claims and the published values (udp addresses, uids, key fingerprints,
 *     incarnations: facts, not secrets; nothing is encrypted), but cannot alter or inject a line, nor pose as the
 *     rendezvous to a rank. Cutting a connection is a denial of service, as on any TCP connection: the rank ends,
 *     as when its launcher dies.</li>
 * <li>A recorded handshake lets its holder test guesses of the job key offline. A key of 256 random bits (what
 *     {@code portals run} generates, or {@code openssl rand -hex 32}) cannot be guessed; a made-up key can.</li>
 * <li>A process of the same user (or root) can read the key from a rank's environment ({@code /proc/PID/environ}
 *     is readable only by its owner) and is then as good as a rank, except under {@code portals run}, whose pid
 *     check admits rank {@code r} only from the process it started for {@code r} or that process's descendants.</li>
 * <li>An admitted rank is a member of the job: it may publish only under its own rank, at most 1024 values, with at
 *     most 1024 lookups waiting.</li>
 * </ul>
 * <p><b>The key fingerprint</b> ({@link org.portals3j.transport.JobKey#fingerprint()}, published by the udp transport
 * as {@code udp.keyFingerprint}) is the first 8 bytes of HMAC-SHA256(job key, {@code "portals3j key fingerprint"}):
 * it names a key in logs and tells two keys apart, and reveals nothing usable about the key or the admission key;
 * it admits nobody (until protocol version 2 it did: it was what HELLO carried). Over the TCP rendezvous the udp
 * transport's fingerprint check is redundant, since every admitted rank proved the same key; it stays because it
 * gives the clear error in the cases without an authenticating rendezvous (the in-JVM {@link
 * org.portals3j.transport.LocalRendezvous}, a third-party {@link org.portals3j.transport.Rendezvous}).
 */
package org.portals3j.runtime;
