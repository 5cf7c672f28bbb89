package org.portals3j.runtime;

/** Where {@link JobRuntime} found out which job this rank belongs to, in the order it looks. */
public enum JobSource {
    /** A rank thread of {@code portals run --transport inmem} (or of another in-JVM runner). */
    IN_JVM,
    /** A process started by {@code portals run} ({@code PORTALS_RANK}, {@code PORTALS_RENDEZVOUS}, ...). */
    PORTALS_RUN,
    /** A process started by Open MPI's {@code mpirun} ({@code OMPI_COMM_WORLD_RANK}, ...). */
    OPEN_MPI,
    /** A task started by Slurm's {@code srun} ({@code SLURM_PROCID}, ...). */
    SLURM,
    /** None of these: a job of one rank on the in-memory transport (like MPI's singleton init). */
    SINGLETON
}
