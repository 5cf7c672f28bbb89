package org.portals3j.mpi.internal;

/** What a probe found: the message's source rank in its communicator, its tag and its length in bytes. */
public record ProbeResult(int source, int tag, long bytes) {
}
