package org.portals3j.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.Buffer;
import mpi.Datatype;
import mpi.Intercomm;
import mpi.MPI;
import mpi.Request;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * bcast, gather, scatter, allGather and allToAll on an intercommunicator (the even and the odd world ranks), blocking
 * and nonblocking, on derived types (one side strided, the other strided or packed basic), 2 to 8 ranks over inmem and
 * 3 over udp: every element of every buffer checked, the gaps of a written buffer as they were, and every receive
 * buffer of the root's group (MPI.ROOT, MPI.PROC_NULL) of a bcast or scatter untouched.
 */
class InterDerivedCollectivesTest {
    /** The gaps of a buffer a call writes. */
    private static final int GAP = -7;
    /** The gaps of a buffer a call only reads. */
    private static final int SENT_GAP = -9;
    /** The rank whose items fill the buffers that no call may write. */
    private static final int JUNK = 9;

    @ParameterizedTest
    @CsvSource({"VECTOR,inmem,2", "VECTOR,inmem,3", "VECTOR,inmem,5", "VECTOR,inmem,8", "INDEXED,inmem,4",
        "STRUCT,inmem,3", "VECTOR,udp,3", "STRUCT,udp,3"})
    void derivedCollectivesBetweenTheGroups(Layout l, String transport, int size) throws Exception {
        MpiJob.run(transport, size, rank -> {
            MPI.Init(new String[0]);
            Intercomm inter = EvenOddGroups.intercomm(rank, 79);
            Datatype t = l.type();
            int per = l.data.length;
            int colour = rank % 2;
            int me = rank / 2;
            int remote = EvenOddGroups.size(size, 1 - colour);
            for (boolean nonblocking : new boolean[] {false, true}) {
                String form = nonblocking ? "nonblocking " : "blocking ";
                // bcast from world rank 0 to the odd group; scatter and gather at world rank 1 (the odd group's root)
                int bcastRoot = EvenOddGroups.root(rank, 0);
                int oddRoot = EvenOddGroups.root(rank, 1);
                Buffer bcast = l.wrap(colour == 0 ? l.items(bcastRoot == MPI.ROOT ? 0 : JUNK, 0, 2, SENT_GAP)
                        : l.blank(2, GAP));
                int[] scatterImage = l.blank(2 * remote, SENT_GAP);
                for (int r = 0; r < remote; r++) {
                    l.put(scatterImage, 2 * r, 2 * r, 10);
                    l.put(scatterImage, 2 * r + 1, 2 * r, 11);
                }
                Buffer scatterSource = l.wrap(oddRoot == MPI.ROOT ? scatterImage : l.blank(1, SENT_GAP));
                int[] untouched = l.items(JUNK, 0, 2, GAP);
                Buffer scattered = l.wrap(colour == 0 ? l.blank(2, GAP) : untouched);
                Buffer gathered = l.wrap(l.blank(2 * remote, GAP));
                Buffer gatherSource = l.wrap(l.items(rank, 0, 2, SENT_GAP));
                Buffer all = l.wrap(l.blank(2 * remote, GAP));
                // allToAll: items 2 j and 2 j + 1 go to rank j of the other group; the odd group receives packed
                int[] toAll = l.blank(2 * remote, SENT_GAP);
                for (int j = 0; j < remote; j++) {
                    l.put(toAll, 2 * j, rank, 2 * j);
                    l.put(toAll, 2 * j + 1, rank, 2 * j + 1);
                }
                Buffer exchanged = l.wrap(colour == 0 ? l.blank(2 * remote, GAP) : new int[2 * remote * per]);
                Datatype exchangedType = colour == 0 ? t : l.basic();
                int exchangedCount = colour == 0 ? 2 : 2 * per;
                if (nonblocking) {
                    Request[] rs = {
                        inter.iBcast(bcast, 2, t, bcastRoot),
                        inter.iScatter(scatterSource, 2, t, scattered, 2, t, oddRoot),
                        inter.iGather(gatherSource, 2, t, gathered, 2, t, oddRoot),
                        inter.iAllGather(l.wrap(l.items(rank, 0, 2, SENT_GAP)), 2, t, all, 2, t),
                        inter.iAllToAll(l.wrap(toAll), 2, t, exchanged, exchangedCount, exchangedType),
                    };
                    for (int i = rs.length - 1; i >= 0; i--) {
                        rs[i].waitFor();
                    }
                } else {
                    inter.bcast(bcast, 2, t, bcastRoot);
                    inter.scatter(scatterSource, 2, t, scattered, 2, t, oddRoot);
                    inter.gather(gatherSource, 2, t, gathered, 2, t, oddRoot);
                    inter.allGather(l.wrap(l.items(rank, 0, 2, SENT_GAP)), 2, t, all, 2, t);
                    inter.allToAll(l.wrap(toAll), 2, t, exchanged, exchangedCount, exchangedType);
                }

                if (colour == 0) {
                    assertThat(Layout.image(bcast)).as(form + "bcast: the root's group's buffers are only read")
                            .containsExactly(l.items(bcastRoot == MPI.ROOT ? 0 : JUNK, 0, 2, SENT_GAP));
                    assertThat(Layout.image(scattered)).as(form + "scatter")
                            .containsExactly(l.items(rank, 10, 2, GAP));
                } else {
                    assertThat(Layout.image(bcast)).as(form + "bcast").containsExactly(l.items(0, 0, 2, GAP));
                    assertThat(Layout.image(scattered)).as(form + "scatter: the root's group receives nothing")
                            .containsExactly(untouched);
                }
                assertThat(Layout.image(scatterSource)).as(form + "the scatter buffer is only read")
                        .containsExactly(oddRoot == MPI.ROOT ? scatterImage : l.blank(1, SENT_GAP));
                int[] gatherExpected = l.blank(2 * remote, GAP);
                if (oddRoot == MPI.ROOT) {
                    for (int r = 0; r < remote; r++) {
                        l.put(gatherExpected, 2 * r, 2 * r, 0);
                        l.put(gatherExpected, 2 * r + 1, 2 * r, 1);
                    }
                }
                assertThat(Layout.image(gathered)).as(form + "gather (written at the root only)")
                        .containsExactly(gatherExpected);
                int[] allExpected = l.blank(2 * remote, GAP);
                int[] exchangedExpected = colour == 0 ? l.blank(2 * remote, GAP) : new int[2 * remote * per];
                for (int r = 0; r < remote; r++) {
                    int from = 2 * r + 1 - colour;
                    for (int k = 0; k < 2; k++) {
                        l.put(allExpected, 2 * r + k, from, k);
                        if (colour == 0) {
                            l.put(exchangedExpected, 2 * r + k, from, 2 * me + k);
                        }
                    }
                    if (colour == 1) {
                        System.arraycopy(l.packed(from, 2 * me, 2), 0, exchangedExpected, 2 * r * per, 2 * per);
                    }
                }
                assertThat(Layout.image(all)).as(form + "allGather").containsExactly(allExpected);
                assertThat(Layout.image(exchanged)).as(form + "allToAll").containsExactly(exchangedExpected);
            }
            MPI.Finalize();
        });
    }
}
