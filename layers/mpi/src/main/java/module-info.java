/**
 * An MPI layer whose public API is Open MPI's Java bindings (package {@code mpi}), on the public Portals 3.2
 * API. Only {@code mpi} is exported; the point-to-point engine and the per-rank state are in
 * {@code org.portals3j.mpi.internal}.
 */
module org.portals3j.mpi {
    requires org.portals3j.portals;
    requires static org.checkerframework.checker.qual;

    exports mpi;
}
