package org.portals3j.mpi.internal;

import java.lang.foreign.MemorySegment;

/**
 * A reduction operation bound to one datatype: combines {@code count} elements of {@code in} into {@code inOut}
 * ({@code inOut[i] = in[i] op inOut[i]}). The collectives call it with {@code in} holding the operand of the lower
 * ranks, as MPI requires for non-commutative operations (mpi-java-api.md section 1.5).
 */
@FunctionalInterface
public interface Reduction {
    /** @throws MpiError if the operation fails (a user function's {@code MPIException}) */
    void apply(MemorySegment in, MemorySegment inOut, int count);
}
