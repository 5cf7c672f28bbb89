package org.portals3j.mpi;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * The intercommunicator the Inter* tests share: the even world ranks in one group, the odd ones in the other, each
 * group led by its lowest rank; errors returned rather than fatal.
 */
final class EvenOddGroups {
    private EvenOddGroups() {
    }

    /** The even/odd intercommunicator of world rank {@code rank}, created with {@code tag} (collective). */
    static Intercomm intercomm(int rank, int tag) throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        Intracomm local = world.split(rank % 2, rank);
        return world.createIntercomm(local, 0, rank % 2 == 0 ? 1 : 0, tag);
    }

    /** How many of {@code size} world ranks have colour {@code colour} (0 even, 1 odd). */
    static int size(int size, int colour) {
        return (size - colour + 1) / 2;
    }

    /** The root argument of a rooted collective whose root is rank 0 of the group of {@code rootColour}. */
    static int root(int rank, int rootColour) {
        if (rank % 2 != rootColour) {
            return 0;
        }
        return rank / 2 == 0 ? MPI.ROOT : MPI.PROC_NULL;
    }
}
