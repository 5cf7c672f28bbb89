package org.portals3j.mpi.internal;

/**
 * One process's neighbourhood for the neighbourhood collectives (MPI 4.1 section 8.6): the ranks it receives block
 * {@code i} from ({@code sources[i]}) and sends block {@code i} to ({@code destinations[i]}), {@code PROC_NULL} for
 * a missing one, and the tag each message carries, so that two edges between the same pair of processes (a
 * periodic dimension of extent 1 or 2, a multigraph) match the right blocks: a Cartesian message carries its
 * direction at the sender, a graph's carries 0 and matches by order.
 */
public record Neighbours(int[] sources, int[] sourceTags, int[] destinations, int[] destinationTags) {
}
