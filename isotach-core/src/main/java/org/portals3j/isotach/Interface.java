package org.portals3j.isotach;

/**
 * The interfaces an application opens with {@link IsotachNet#openNet}. The report chose them at compile time
 * by the headers included (Isotach report App. F.7.1 to App. F.7.3, pp. 120-122): {@code noniso.h}, {@code iso_mbm.h},
 * {@code iso_smm.h}. The common Isotach calls ({@code iso_end}, signals, barriers) come with either Isotach interface.
 *
 * <p>{@link #ISO_MBM} and {@link #ISO_SMM} exclude each other (Isotach report App. A, p. 94): {@code openNet} rejects
 * the pair.
 */
public enum Interface {
    /** Non-Isotach message passing (send/receive) and the non-Isotach barrier. */
    NONISO,
    /** Isotach message passing: iso_send, iso_receive, plus the common Isotach calls. */
    ISO_MBM,
    /** Isotach shared memory: iso_read, iso_retrieve, iso_write, iso_sched, iso_assign, plus the common calls. */
    ISO_SMM
}
