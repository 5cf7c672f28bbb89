package org.portals3j.mpi.internal;

/**
 * Which overload of a rooted collective a rank called (mpi-java-api.md sections 1.8 and 2.8): the full form, the
 * single-buffer form every rank calls ({@code gather(buf, count, type, root)}), or one of the two forms of
 * {@code gatherv}/{@code scatterv} meant for one side only.
 */
public enum RootedForm {
    /** Send and receive arguments on every rank. */
    FULL,
    /** One buffer on every rank: in place at the root, the send (gather) or receive (scatter) buffer elsewhere. */
    IN_PLACE,
    /** The root's in-place form, with only the root's arguments: another rank calling it is ERR_ROOT. */
    ROOT_ONLY,
    /** The other ranks' form, without the root's arguments: the root calling it is ERR_ROOT. */
    NON_ROOT;

    /** Checks that rank {@code me} may call this form with root {@code root}; returns whether it is in place. */
    boolean inPlaceAt(int me, int root) {
        if (this == ROOT_ONLY && me != root) {
            throw new MpiError(ErrorClass.ROOT, "rank " + me + " is not the root (" + root + "): only the root may"
                    + " call the in-place form; the other ranks call the form with their own arguments");
        }
        if (this == NON_ROOT && me == root) {
            throw new MpiError(ErrorClass.ROOT, "rank " + me + " is the root: it must call a form with the root's"
                    + " counts and displacements");
        }
        return me == root && (this == IN_PLACE || this == ROOT_ONLY);
    }
}
