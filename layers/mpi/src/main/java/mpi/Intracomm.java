package mpi;

/**
 * An intra-communicator: the type of {@code MPI.COMM_WORLD} and {@code MPI.COMM_SELF}. Everything this version has
 * is declared on {@link Comm}.
 */
public class Intracomm extends Comm {
    Intracomm(int predefined) {
        super(predefined);
    }
}
